package org.mcountkit.cli;

import java.util.List;

/**
 * The environment section of {@code mcountkit --help}: what the launcher scripts read, one
 * variable a row, its meaning wrapped under its own column (picocli's footer wraps every line at
 * column 0, which split a path in two).
 */
final class EnvironmentSection {

    /** One variable and what it does. */
    record Variable(String name, String meaning) {}

    static final List<Variable> VARIABLES = List.of(
            new Variable("JAVA_HOME", "the JDK to run (else Temurin 25 when installed, else java on PATH)"),
            new Variable("MCOUNTKIT_HEAP", "the JVM's heap limit, -Xmx (default 256m)"),
            new Variable("MCOUNTKIT_PLUGINS", "extra backend jars, ':'-separated"),
            new Variable("MCOUNTKIT_NO_CDS=1", "no class-data archive or AOT cache"),
            new Variable(
                    "MCOUNTKIT_CDS_WAIT=1",
                    "a first run makes the archive before it exits (else in the background, after the"
                            + " command's output)"),
            new Variable(
                    "XDG_CACHE_HOME",
                    "the archive is kept in $XDG_CACHE_HOME/mcountkit, else in ~/.cache/mcountkit"
                            + " (HOME, else the user's home in the password database; none: no archive)"),
            new Variable("MCOUNTKIT_SERVER=0", "mcountkit-recordmcount runs each call in its own JVM"),
            new Variable(
                    "MCOUNTKIT_SERVER_IDLE",
                    "seconds the build server waits for a call before it stops (default 120)"));

    static final String HEADING = "Environment (read by the mcountkit and mcountkit-recordmcount scripts):";

    private static final int WIDTH = 78;
    private static final int NAME_COLUMN = 2;
    private static final int MEANING_COLUMN = 26;

    private EnvironmentSection() {}

    /** The section as --help prints it: the heading, then a row per variable, wrapped at 78 columns. */
    static String text() {
        StringBuilder text = new StringBuilder(String.format("%n%s%n", HEADING));
        for (Variable variable : VARIABLES) {
            StringBuilder line = new StringBuilder(" ".repeat(NAME_COLUMN)).append(variable.name());
            if (line.length() >= MEANING_COLUMN - 1) {
                text.append(line).append(String.format("%n"));
                line = new StringBuilder();
            }
            for (String word : variable.meaning().split(" ")) {
                boolean first = line.length() <= MEANING_COLUMN;
                if (!first && line.length() + 1 + word.length() > WIDTH) {
                    text.append(line).append(String.format("%n"));
                    line = new StringBuilder();
                    first = true;
                }
                if (first) {
                    line.append(" ".repeat(MEANING_COLUMN - line.length()));
                } else {
                    line.append(' ');
                }
                line.append(word);
            }
            text.append(line).append(String.format("%n"));
        }
        return text.toString();
    }
}
