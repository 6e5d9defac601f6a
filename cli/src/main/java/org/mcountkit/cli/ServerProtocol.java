package org.mcountkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The build server's protocol as {@code bin/mcountkit-recordmcount} declares it: the client script
 * is the one place it is written (bash cannot read Java), and the build puts a copy of the script
 * in the jar, where the server reads its assignments. Each tag is one character, as the client
 * strips a tag and its space with {@code ${line:2}}.
 *
 * @param version in the state file's name, so a client never waits on a server of another version
 * @param takenTag starts the line by which the server takes a call, with its answer token
 * @param takenWait how many seconds a client waits for that line before it runs the call itself
 * @param outTag starts a line of the call's standard output
 * @param errTag starts a line of the call's standard error
 * @param exitTag starts the last line, the call's exit status
 */
record ServerProtocol(int version, char takenTag, int takenWait, char outTag, char errTag, char exitTag) {

    /** The client script's copy in the jar. */
    static final String SCRIPT = "mcountkit-recordmcount";

    private static final Pattern ASSIGNMENT = Pattern.compile("^([a-z_]+)=([A-Za-z0-9-]+)$", Pattern.MULTILINE);

    /** The protocol of the client script this jar was built with. */
    static ServerProtocol ofThisJar() {
        try (InputStream in = ServerProtocol.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("the jar has no copy of bin/" + SCRIPT);
            }
            return of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The protocol a client script declares. */
    static ServerProtocol of(String script) {
        Map<String, String> values = new HashMap<>();
        Matcher m = ASSIGNMENT.matcher(script);
        while (m.find()) {
            if (values.put(m.group(1), m.group(2)) != null) {
                throw new IllegalStateException("bin/" + SCRIPT + " declares " + m.group(1) + " twice");
            }
        }
        return new ServerProtocol(
                Integer.parseInt(value(values, "protocol_version")),
                tag(values, "taken_tag"),
                Integer.parseInt(value(values, "taken_wait")),
                tag(values, "out_tag"),
                tag(values, "err_tag"),
                tag(values, "exit_tag"));
    }

    /** The answer's text: each output line with its stream's tag, then the status. */
    String reply(String out, String err, int status) {
        StringBuilder text = new StringBuilder();
        out.lines().forEach(line -> text.append(outTag).append(' ').append(line).append('\n'));
        err.lines().forEach(line -> text.append(errTag).append(' ').append(line).append('\n'));
        return text.append(exitTag).append(' ').append(status).append('\n').toString();
    }

    /** The line by which the server takes a call and shows it is the client's own. */
    String takenLine(String answerToken) {
        return takenTag + " " + answerToken + "\n";
    }

    /**
     * How many seconds old a call may be when the server takes it: half the client's wait, so a
     * call its client has given up on (and runs itself) is never taken too.
     */
    long oldestCallSeconds() {
        return takenWait / 2;
    }

    private static String value(Map<String, String> values, String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalStateException("bin/" + SCRIPT + " declares no " + name);
        }
        return value;
    }

    private static char tag(Map<String, String> values, String name) {
        String value = value(values, name);
        if (value.length() != 1) {
            throw new IllegalStateException("bin/" + SCRIPT + "'s " + name + " is not one character: " + value);
        }
        return value.charAt(0);
    }
}
