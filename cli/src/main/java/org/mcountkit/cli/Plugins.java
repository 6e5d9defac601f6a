package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --plugin-path DIR}: backend jars found there join those on the class path. */
final class Plugins {

    @Option(
            names = "--plugin-path",
            paramLabel = "DIR",
            description = "Also load architecture backends from the jars in DIR (repeatable).")
    List<Path> directories = new ArrayList<>();

    /** The library over the class path's backends plus those in the plugin directories. */
    Mcountkit mcountkit(CommandSpec spec) {
        try {
            return Mcountkit.withPluginDirectories(directories);
        } catch (InputException e) {
            // A bad --plugin-path is a usage error (exit 2), not a problem with an input file.
            throw new ParameterException(
                    spec.commandLine(), (directories.isEmpty() ? "" : "--plugin-path ") + e.getMessage());
        }
    }
}
