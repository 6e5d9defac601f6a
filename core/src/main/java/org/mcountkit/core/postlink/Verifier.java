package org.mcountkit.core.postlink;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import org.mcountkit.api.Code;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Verification;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.pipeline.Backends;
import org.mcountkit.core.pipeline.CallTargets;
import org.mcountkit.core.pipeline.CodeReader;
import org.mcountkit.core.pipeline.ElfFiles;
import org.mcountkit.core.pipeline.ElfImage;
import org.mcountkit.core.pipeline.Millis;
import org.mcountkit.core.pipeline.SiteState;
import org.mcountkit.core.pipeline.TableSites;
import org.mcountkit.core.pipeline.TracedSections;
import org.slf4j.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * Checks every entry of a linked image's {@code __mcount_loc} and
 * {@code __patchable_function_entries} (the sections of those names, or for a kernel image the
 * range between {@code __start_mcount_loc} and {@code __stop_mcount_loc}): the address lies in a
 * traced code section, and the bytes there are what the backend's decoder reads as a call to the
 * hook or a NOP (for a patchable entry, a NOP pad). An entry that fails is a finding: a stale
 * per-object offset after linker relaxation, or a corrupted word. Zero entries (discarded
 * functions, or entries {@code prune} zeroed) are counted, not checked, as the kernel skips them.
 * An entry's value is what the loaded program sees ({@link TableWords}): in an image whose words
 * a relative relocation fills, its addend.
 *
 * <p>An entry whose bytes are right but which lies inside no function is reported apart, as
 * outside a function: when a weak function is overridden the linker keeps its code and its table
 * entry but drops its symbol. "Inside a function" is {@link org.mcountkit.core.pipeline.FunctionIndex#inFunction}: a sized
 * {@code STT_FUNC} symbol covers it, or one starts within the NOPs at the entry; Linux 6.15's
 * {@code scripts/sorttable} zeroes the entries its own reading of {@code nm -S} puts in no
 * function, and ftrace skips the zeros.
 */
public final class Verifier {

    /** Why an entry with the right bytes is outside a function: the one explanation we know of. */
    private static final String OUTSIDE_FUNCTION =
            "in no function symbol: most likely the dead code of an overridden weak function, which the kernel"
                    + " skips or NOPs";

    /**
     * How far the NOPs at an entry are followed to find the function they pad: past any pad a
     * compiler writes ({@code -fpatchable-function-entry} takes at most a few dozen bytes).
     */
    private static final int MAX_PAD = 64;

    private final Backends backends;
    private final Logger log;

    public Verifier(Backends backends, Logger log) {
        this.backends = backends;
        this.log = log;
    }

    public Verifier(Backends backends) {
        this(backends, NOPLogger.NOP_LOGGER);
    }

    /**
     * Verifies one linked image.
     *
     * @throws InputException when the file is not a linked image of a supported machine
     */
    public Verification verify(Path path) {
        try (ElfFile file = ElfFiles.open(path)) {
            if (file.type() == ElfFile.ET_REL) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "not a linked image (e_type " + file.type()
                                + "): verify checks executables and shared objects; list reads objects");
            }
            long start = System.nanoTime();
            ElfImage image = ElfImage.of(file, backends.require(file.target()));
            Verification result = verify(image);
            if (log.isDebugEnabled()) {
                log.debug(
                        "{}: {}; {} entr(ies) checked, {} zero, {} bad, {} outside a function; {} ms",
                        path,
                        image.machine(),
                        result.checked(),
                        result.zeros(),
                        result.findings().size(),
                        result.outsideFunction().size(),
                        Millis.since(start));
            }
            return result;
        }
    }

    /** Verifies an image already read: {@link Pruner} zeroes what this calls outside a function. */
    static Verification verify(ElfImage image) {
        return new Check(image).run();
    }

    /** The state of checking one image. */
    private static final class Check {
        private final ElfImage image;
        private final ElfFile file;
        private final int word;
        private final CodeReader reader;
        private final CallTargets hooks;
        private final List<Verification.Finding> findings = new ArrayList<>();
        private final List<Verification.Finding> outsideFunction = new ArrayList<>();
        /** False in an image without function symbols (stripped): then only the bytes are checked. */
        private final boolean functionsKnown;

        private final List<Diagnostic> diagnostics = new ArrayList<>();
        private int checked;
        private int zeros;

        Check(ElfImage image) {
            this.image = image;
            this.file = image.file();
            this.word = image.target().pointerSize();
            this.reader = CodeReader.of(image);
            this.hooks = CallTargets.hooksOf(image);
            this.functionsKnown = image.functions().size() > 0;
        }

        Verification run() {
            if (image.hooks().defined().isEmpty()) {
                diagnostics.add(Diagnostic.of(
                        Severity.NOTE,
                        "no hook ("
                                + String.join(", ", new TreeSet<>(image.abi().hooks())) + ") is defined in the image:"
                                + " any direct call counts as the call to it, a call through a pointer slot"
                                + " when a dynamic relocation fills the slot with the hook's address"));
            }
            if (!functionsKnown) {
                diagnostics.add(Diagnostic.of(
                        Severity.WARNING,
                        "no function symbols (a stripped image?): entries are checked by their bytes only,"
                                + " not for lying inside a function"));
            }
            List<TableWords.Table> tables = TableWords.of(image);
            for (TableWords.Table table : tables) {
                entries(table);
            }
            if (tables.isEmpty()) {
                diagnostics.add(Diagnostic.of(
                        Severity.WARNING,
                        "no " + McountLocSections.TABLE + " or " + TableSites.PATCHABLE_FUNCTION_ENTRIES
                                + " table: nothing to verify"));
            }
            return new Verification(
                    file.path(), image.machine(), checked, zeros, findings, outsideFunction, diagnostics);
        }

        private void entries(TableWords.Table table) {
            long[] values = table.values();
            for (int i = 0; i < values.length; i++) {
                if (values[i] == 0) {
                    zeros++;
                    continue;
                }
                checked++;
                entry(table.name(), (long) i * word, values[i], table.patchable());
            }
        }

        private void entry(String table, long at, long address, boolean patchable) {
            Section code = image.codeSectionAt(address);
            if (code == null) {
                findings.add(new Verification.Finding(
                        table, at, address, null, null, expected(address, 0), "not in any code section"));
                return;
            }
            int offset = (int) (address - code.address());
            Code bytes = image.codeAt(code, offset);
            int nops = reader.nopRun(bytes, offset, MAX_PAD);
            String function = image.functions().describeEntry(code.index(), offset, nops);
            String foundBytes = hex(bytes, offset, reader.siteLength(bytes, offset));
            String expected = expected(address, bytes.mode());
            if (!TracedSections.isTraced(code.name())) {
                findings.add(new Verification.Finding(
                        table,
                        at,
                        address,
                        function,
                        foundBytes,
                        expected,
                        "in " + code.name() + ", a section that is not traced"));
                return;
            }
            boolean siteBytes = (patchable && nops > 0) || reader.state(bytes, offset, hooks) != SiteState.OTHER;
            boolean inFunction = !functionsKnown || image.functions().inFunction(code.index(), offset, nops);
            if (siteBytes && inFunction) {
                return;
            }
            Verification.Finding finding = new Verification.Finding(
                    table,
                    at,
                    address,
                    function,
                    foundBytes,
                    expected,
                    siteBytes
                            ? OUTSIDE_FUNCTION
                            : inFunction
                                    ? "neither a call to the hook nor a NOP"
                                    : "in no function symbol, and neither a call to the hook nor a NOP");
            (siteBytes ? outsideFunction : findings).add(finding);
        }

        private String expected(long address, int mode) {
            return reader.expected(address, mode, image.hooks().defined());
        }

        private static String hex(Code code, int offset, int length) {
            ByteBuffer bytes = code.bytes();
            int n = Math.max(0, Math.min(length, bytes.limit() - offset));
            byte[] b = new byte[n];
            bytes.get(offset, b);
            return HexFormat.ofDelimiter(" ").formatHex(b);
        }
    }
}
