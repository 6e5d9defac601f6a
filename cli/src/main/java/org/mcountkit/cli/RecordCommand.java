package org.mcountkit.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code record}, as the help, the man page and shell completion show it: the kernel's
 * {@code recordmcount [-w] file.o...}, in place. {@link Main} hands every {@code record} line to
 * {@link RecordLine}, its one reader, which knows these options (a test holds the two together);
 * picocli never runs this command.
 */
@Command(
        name = "record",
        exitCodeList = {
            "0:Every file is recorded (or has no call site).",
            "1:A file could not be read or written, or had an error (or, with --strict, a warning).",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {"  mcountkit record foo.o bar.o", "  mcountkit record -w -j 8 @objects.txt"},
        description = {
            "Append a __mcount_loc table of the call sites in traced sections to each object, in place.",
            "Accepts recordmcount's arguments; @FILE reads arguments from FILE."
        })
final class RecordCommand extends CommandHelp {

    @Mixin
    Context context;

    @Mixin
    Jobs jobs;

    @Mixin
    RecordmcountArguments kernelTool;

    @Option(names = "--strict", description = "Fail a file on any warning (linker relaxation, rejected references).")
    boolean strict;

    @Option(
            names = "--fsync",
            description = "Flush each rewritten file to disk before it replaces the original"
                    + " (slower; the kernel's tool and the compiler do not).")
    boolean fsync;
}
