package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.output.RefusalText;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code patch}: every recorded site becomes the NOP or the call, after checking its old bytes. */
@Command(
        name = "patch",
        exitCodeList = {
            "0:Every file is patched (or was already).",
            "1:A file could not be read or written, or a site held something else.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {"  mcountkit patch --nop prog", "  mcountkit patch --call --target my_hook prog"},
        description = {
            "Rewrite every site of each file to the backend's NOP (--nop) or call (--call), in place and"
                    + " atomically. Each site must hold the call or a NOP first; if any holds something else the file is"
                    + " left unchanged. Patching twice changes nothing the second time.",
            "Prints FILE: N patched, N unchanged, N skipped per file; a refused site as"
                    + " mcountkit: FILE: SECTION+0xOFFSET 0xADDRESS FUNCTION: found BYTES, expected ... on stderr."
        })
final class PatchCommand extends CommandHelp implements Callable<Integer> {

    /** Exactly one of --nop and --call. */
    static final class ModeChoice {
        @Option(names = "--nop", required = true, description = "Write the NOP at every site.")
        boolean nop;

        @Option(
                names = "--call",
                required = true,
                description = "Write the call to the hook (or to --target) at every site; linked images only.")
        boolean call;
    }

    @Mixin
    Context context;

    @ArgGroup(exclusive = true, multiplicity = "1")
    ModeChoice mode;

    @Option(
            names = "--table-only",
            description = "Only the sites __mcount_loc and __patchable_function_entries name"
                    + " (default: every site list finds).")
    boolean tableOnly;

    @Option(
            names = "--target",
            paramLabel = "SYMBOL",
            description = "With --call, call this function instead of the hook; with --nop, also accept calls to it.")
    String target;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Linked images or objects to rewrite in place.")
    List<Path> files;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = context.out();
        Reporter reporter = context.reporter();
        Mcountkit mcountkit = context.mcountkit();
        PatchOptions options =
                new PatchOptions(mode.nop ? PatchMode.NOP : PatchMode.CALL, tableOnly, Optional.ofNullable(target));
        return context.eachFile(files, file -> mcountkit.patch(file, options), (file, result) -> {
            for (PatchResult.Refusal r : result.refused()) {
                reporter.failed(
                        file,
                        String.format(
                                "%s+0x%x 0x%x %s: found %s, expected %s",
                                r.section(),
                                r.offset(),
                                r.address(),
                                r.function() == null ? "?" : r.function(),
                                RefusalText.found(r),
                                RefusalText.expected(r)));
            }
            reporter.diagnostics(file, result.diagnostics());
            if (!context.verbosity.quiet && result.refused().isEmpty()) {
                out.printf(
                        "%s: %d patched, %d unchanged, %d skipped%n",
                        file, result.patched(), result.unchanged(), result.skipped());
            }
            return result.refused().isEmpty();
        });
    }
}
