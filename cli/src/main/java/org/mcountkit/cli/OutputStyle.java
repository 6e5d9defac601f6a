package org.mcountkit.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** How a command that reports on files prints its report: text, one JSON array, or JSON Lines. */
final class OutputStyle {

    /** The styles, as {@code --format} spells them. */
    enum Style {
        text,
        json,
        jsonl
    }

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
            names = "--format",
            paramLabel = "STYLE",
            description = "text (the default), json (one array, an object per file)"
                    + " or jsonl (JSON Lines: one object per file on its own line, as each file is done)."
                    + " Both JSON forms have schema version 1 (docs/commands.md).")
    Style format;

    @Option(names = "--json", description = "The same as --format json.")
    boolean json;

    Style style() {
        if (json && format != null && format != Style.json) {
            throw new ParameterException(spec.commandLine(), "--json and --format " + format + " disagree");
        }
        return json ? Style.json : format == null ? Style.text : format;
    }
}
