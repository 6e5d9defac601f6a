package org.mcountkit.cli;

import picocli.CommandLine.Option;

/**
 * {@code --format} of the commands that answer with one report about a kernel ({@code functions},
 * {@code explain}, {@code diff}): text lines, or one JSON object, whose fields docs/functions.md
 * lists.
 */
final class AnswerFormat {

    /** The forms, as {@code --format} spells them. */
    enum Style {
        text,
        json
    }

    @Option(
            names = "--format",
            paramLabel = "STYLE",
            description = "text (the default) or json (one object; docs/functions.md has its fields).")
    Style format = Style.text;

    boolean json() {
        return format == Style.json;
    }
}
