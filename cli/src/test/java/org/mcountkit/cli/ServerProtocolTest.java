package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerProtocolTest {

    @Test
    void theJarReadsTheClientScriptItWasBuiltWith() throws IOException {
        String script = Files.readString(Path.of("../bin/mcountkit-recordmcount"), StandardCharsets.UTF_8);

        assertEquals(ServerProtocol.of(script), ServerProtocol.ofThisJar());
    }

    /**
     * A server that runs keeps the protocol of the jar it started from, and a client finds it by
     * the version in the state file's name: the current version's words are pinned here, so that
     * changing one without a new version fails (a new version's record may have other words, so
     * the pin moves to it).
     */
    @Test
    void theVersionsWordsArePinned() {
        Map<Integer, ServerProtocol> pinned = Map.of(6, new ServerProtocol(6, 't', 10, '1', '2', 'x'));
        ServerProtocol now = ServerProtocol.ofThisJar();

        assertEquals(
                pinned.get(now.version()),
                now,
                "bin/mcountkit-recordmcount's protocol changed: give it a new protocol_version and pin it here");
    }

    @Test
    void repliesInTheScriptsTags() {
        ServerProtocol protocol = new ServerProtocol(9, 'T', 6, 'o', 'e', 'q');

        assertEquals("o a\no b\ne c\nq 1\n", protocol.reply("a\nb\n", "c\n", 1));
        assertEquals("T 42\n", protocol.takenLine("42"));
        assertEquals(3, protocol.oldestCallSeconds(), "half the client's wait");
    }

    @Test
    void aScriptWithoutATagOrWithALongOneIsABrokenBuild() {
        String whole = "protocol_version=5\ntaken_tag=t\ntaken_wait=10\nout_tag=1\nerr_tag=2\nexit_tag=x\n";

        assertEquals(new ServerProtocol(5, 't', 10, '1', '2', 'x'), ServerProtocol.of(whole));
        IllegalStateException missing =
                assertThrows(IllegalStateException.class, () -> ServerProtocol.of(whole.replace("err_tag=2\n", "")));
        assertEquals("bin/mcountkit-recordmcount declares no err_tag", missing.getMessage());
        IllegalStateException tooLong = assertThrows(
                IllegalStateException.class, () -> ServerProtocol.of(whole.replace("out_tag=1", "out_tag=11")));
        assertEquals("bin/mcountkit-recordmcount's out_tag is not one character: 11", tooLong.getMessage());
        IllegalStateException twice =
                assertThrows(IllegalStateException.class, () -> ServerProtocol.of(whole + "taken_tag=p\n"));
        assertEquals("bin/mcountkit-recordmcount declares taken_tag twice", twice.getMessage());
    }
}
