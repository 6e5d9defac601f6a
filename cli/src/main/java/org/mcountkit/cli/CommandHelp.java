package org.mcountkit.cli;

import picocli.CommandLine.Command;

/**
 * What the help of every mcountkit command has, said once: {@code -h}/{@code --help} and
 * {@code -V}/{@code --version}, and the headings of its exit status and examples. picocli reads a
 * command's {@code @Command} attributes from its superclasses too; each command adds its own.
 */
@Command(
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        exitCodeListHeading = "%nExit status:%n",
        footerHeading = "%nExamples:%n")
abstract class CommandHelp {}
