package org.mcountkit.core.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;

/**
 * {@code patch --nop} then {@code --call} on a copy of a linked image, as every backend's
 * linked-program tests run it: both patch every site, and the calls give the image back byte for
 * byte. What the NOPed copy holds is the machine's own question, asked of its disassembler.
 */
public final class PatchRoundTrip {

    /** Checks made on the NOPed copy. */
    public interface NoppedCheck {
        void check(Path nopped) throws IOException;
    }

    private PatchRoundTrip() {}

    /** Runs the round trip on {@code copy}, a copy of {@code image} with {@code sites} sites. */
    public static void check(Mcountkit mcountkit, Path image, Path copy, int sites, NoppedCheck whenNopped)
            throws IOException {
        Files.copy(image, copy);
        PatchResult nop = mcountkit.patch(copy, new PatchOptions(PatchMode.NOP, false, Optional.empty()));
        assertEquals(sites, nop.patched(), nop.toString());
        whenNopped.check(copy);
        PatchResult call = mcountkit.patch(copy, new PatchOptions(PatchMode.CALL, false, Optional.empty()));
        assertEquals(sites, call.patched(), call.toString());
        assertArrayEquals(Files.readAllBytes(image), Files.readAllBytes(copy), "--nop then --call is the identity");
    }
}
