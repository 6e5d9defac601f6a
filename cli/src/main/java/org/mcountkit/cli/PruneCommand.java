package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.Verification;
import org.mcountkit.core.output.FindingText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code prune}: Linux 6.15's table fix for any linked image, kernels before 6.15 included. */
@Command(
        name = "prune",
        exitCodeList = {
            "0:Every image is pruned (or already was).",
            "1:An image could not be read, pruned or written.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {"  mcountkit prune --dry-run vmlinux", "  mcountkit prune vmlinux"},
        description = {
            "Zero every __mcount_loc entry of each linked image or module that verify reports as outside-function (inside"
                    + " no function symbol: the dead code of an overridden weak function) and sort the table with the"
                    + " zeros first, as Linux 6.15's scripts/sorttable does after the final link. A kernel image's"
                    + " table is the range __start_mcount_loc..__stop_mcount_loc.",
            "Relocations into the table follow their values; a zeroed entry's (an --emit-relocs R_X86_64_64, a"
                    + " dynamic R_*_RELATIVE) becomes the machine's NONE type, so the entry stays 0 at run time."
                    + " The file is replaced atomically; pruning twice changes nothing the second time.",
            "Prints IMAGE: TABLE+0xENTRY 0xADDRESS ?: zeroed: REASON per entry (would zero, with --dry-run),"
                    + " then IMAGE: N entries, N zero before, N zeroed, N relocations made NONE, and what was done."
        })
final class PruneCommand extends CommandHelp implements Callable<Integer> {

    @Mixin
    Context context;

    @Option(names = "--dry-run", description = "List the entries that would be zeroed; change nothing.")
    boolean dryRun;

    @Parameters(
            paramLabel = "IMAGE",
            arity = "1..*",
            description = "Linked images (vmlinux, executables) or kernel modules (.ko): in a module each such"
                    + " entry is zeroed and its relocation made to write 0 (symbol 0, addend 0: not NONE, which"
                    + " the powerpc64 and sparc64 module loaders refuse), and nothing moves (ftrace sorts a module's"
                    + " table when it loads it).")
    List<Path> images;

    @Override
    public Integer call() throws IOException {
        PruneOptions options = new PruneOptions(dryRun);
        return context.eachFile(images, image -> context.mcountkit().prune(image, options), (image, result) -> {
            context.reporter().diagnostics(result.file(), result.diagnostics());
            if (!context.verbosity.quiet) {
                print(context.out(), result, dryRun);
            }
            return true;
        });
    }

    private static void print(PrintWriter out, PruneResult r, boolean dryRun) {
        for (Verification.Finding f : r.zeroed()) {
            out.printf(
                    "%s: %s+0x%x 0x%x %s: %s: %s%n",
                    r.file(),
                    f.table(),
                    f.entryOffset(),
                    f.address(),
                    f.function() == null ? "?" : FindingText.function(f),
                    dryRun ? "would zero" : "zeroed",
                    FindingText.reason(f));
        }
        String done = !r.changes() ? "already pruned, unchanged" : dryRun ? "dry run, unchanged" : "written";
        out.printf(
                "%s: %d entr%s, %d zero before, %d %s, %d relocation%s made %s%s; %s%n",
                r.file(),
                r.entries(),
                r.entries() == 1 ? "y" : "ies",
                r.zerosBefore(),
                r.zeroed().size(),
                dryRun ? "to zero" : "zeroed",
                r.relocationsNeutralised(),
                r.relocationsNeutralised() == 1 ? "" : "s",
                r.module() ? "to write 0" : "NONE",
                r.reordered() ? ", entries reordered" : "",
                done);
    }
}
