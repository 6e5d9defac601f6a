package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code record}: the kernel's {@code recordmcount [-w] file.o...}, in place. */
@Command(
        name = "record",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:Every file is recorded (or has no call site).",
            "1:A file could not be read or written, or had an error (or, with --strict, a warning).",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footerHeading = "%nExamples:%n",
        footer = {"  mcountkit record foo.o bar.o", "  mcountkit record -w -j 8 @objects.txt"},
        description = {
            "Append a __mcount_loc table of the call sites in traced sections to each object, in place.",
            "Accepts recordmcount's arguments; @FILE reads arguments from FILE."
        })
final class RecordCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Verbosity verbosity;

    @Mixin
    Jobs jobs;

    @Mixin
    Plugins plugins;

    @Option(
            names = "-w",
            description = "Print \"Section S has mcount callers being ignored\" per untraced section,"
                    + " as recordmcount -w does.")
    boolean warnUntraced;

    @Option(names = "--strict", description = "Fail a file on any warning (linker relaxation, rejected references).")
    boolean strict;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Relocatable objects (.o) to rewrite.")
    List<Path> files;

    @Option(
            names = "--fsync",
            description = "Flush each rewritten file to disk before it replaces the original"
                    + " (slower; the kernel's tool and the compiler do not).")
    boolean fsync;

    @Override
    public Integer call() {
        return RecordRun.run(
                plugins.mcountkit(spec),
                arguments(),
                Path.of(""),
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }

    RecordArguments arguments() {
        return new RecordArguments(
                files, warnUntraced, strict, fsync, jobs.jobs, verbosity.verbose, verbosity.quiet, plugins.directories);
    }
}
