package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.mcountkit.core.InputException;
import org.mcountkit.core.KernelTableCheck;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Verification;
import org.mcountkit.core.output.FindingText;
import org.mcountkit.core.output.VerificationJsonWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code verify}: every table entry of a linked image or a relocatable object (a kernel module)
 * points at a call or a NOP in a traced function; entries with the right bytes in no function (dead code of an overridden weak
 * function) are reported apart and fail the run only with {@code --strict}.
 */
@Command(
        name = "verify",
        exitCodeList = {
            "0:No entry is bad.",
            "1:An entry is bad (or, with --strict, outside a function), or an image cannot be read.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {"  mcountkit verify vmlinux", "  mcountkit verify --strict --json prog"},
        description = {
            "Check every __mcount_loc and __patchable_function_entries entry of each linked image:"
                    + " it must lie in a traced section and hold the call to the hook or a NOP.",
            "In a relocatable object (a kernel module .ko, a recorded .o) each entry is placed through its"
                    + " relocation and must be a call a relocation to the hook names, or a NOP; a word no"
                    + " relocation places is bad, one whose relocation is NONE counts as zero.",
            "An entry with those bytes that lies inside no function symbol is reported as outside-function:"
                    + " most likely the code of a weak function another definition replaced, which the kernel"
                    + " skips or NOPs. It is not bad unless --strict is given.",
            "Text: IMAGE: TABLE+0xENTRY 0xADDRESS FUNCTION: REASON: found BYTES, expected ... per bad entry,"
                    + " IMAGE: TABLE+0xENTRY 0xADDRESS ?: outside-function: REASON: found BYTES per entry outside"
                    + " a function, then a summary line per image. --format json and jsonl: see docs/commands.md."
        })
final class VerifyCommand extends CommandHelp implements Callable<Integer> {

    @Mixin
    Context context;

    @Mixin
    OutputStyle output;

    @Option(
            names = "--strict",
            description = "Also fail (exit 1) on entries outside a function, which are not bad otherwise.")
    boolean strict;

    @Option(
            names = "--baseline",
            paramLabel = "OLD",
            description = "An earlier build's vmlinux: a kernel image must still have every entry it had.")
    Path baseline;

    @Parameters(
            paramLabel = "IMAGE",
            arity = "1..*",
            description = "Linked images (executables, shared objects, vmlinux) or relocatable objects (.ko, .o).")
    List<Path> images;

    @Override
    public Integer call() throws IOException {
        OutputStyle.Style style = output.style();
        VerificationJsonWriter jsonWriter = new VerificationJsonWriter();
        PrintWriter out = context.out();
        Reporter reporter = context.reporter();
        Mcountkit mcountkit = context.mcountkit();
        List<Verification> results = new ArrayList<>();
        int status = context.eachFile(Mcountkit.withArchiveMembers(images), mcountkit::verify, (image, v) -> {
            results.add(v);
            reporter.diagnostics(v.file(), v.diagnostics());
            Optional<KernelTableCheck> kernel;
            try {
                kernel = mcountkit.kernelTable(image, Optional.ofNullable(baseline));
            } catch (InputException e) {
                reporter.failed(image, e.getMessage());
                return false;
            }
            switch (style) {
                case text -> print(out, v, kernel);
                case jsonl -> jsonWriter.writeLine(v, out);
                case json -> {
                    // the array is written once every image is read
                }
            }
            kernel.ifPresent(k -> k.problems().forEach(p -> reporter.failed(image, p)));
            return v.clean(strict) && kernel.map(k -> k.problems().isEmpty()).orElse(true);
        });
        if (style == OutputStyle.Style.json) {
            jsonWriter.write(results, out);
        }
        out.flush();
        return status;
    }

    private static void printFinding(
            PrintWriter out, Verification v, Verification.Finding f, String reason, String expected) {
        out.printf(
                "%s: %s+0x%x 0x%x %s: %s: found %s%s%n",
                v.file(),
                f.table(),
                f.entryOffset(),
                f.address(),
                f.function() == null ? "?" : FindingText.function(f),
                reason,
                f.found() == null ? "nothing" : FindingText.found(f),
                expected);
    }

    private static void print(PrintWriter out, Verification v, Optional<KernelTableCheck> kernel) {
        for (Verification.Finding f : v.findings()) {
            printFinding(out, v, f, FindingText.reason(f), ", expected " + FindingText.expected(f));
        }
        for (Verification.Finding f : v.outsideFunction()) {
            printFinding(out, v, f, "outside-function: " + FindingText.reason(f), "");
        }
        // The count of entries outside a function appears when there are some, so the common
        // summary reads as it always has.
        out.printf(
                "%s: %d entr%s checked, %d zero, %d bad%s%s%n",
                v.file(),
                v.checked(),
                v.checked() == 1 ? "y" : "ies",
                v.zeros(),
                v.findings().size(),
                v.outsideFunction().isEmpty() ? "" : ", " + v.outsideFunction().size() + " outside a function",
                kernel.map(k -> "; ftrace keeps " + k.afterBoot() + " after boot, " + k.invalid() + " invalid")
                        .orElse(""));
    }
}
