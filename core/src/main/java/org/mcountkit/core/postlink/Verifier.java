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
import org.mcountkit.api.Symbol;
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
 * per-object offset after linker relaxation, or a corrupted word. Zero words (discarded
 * functions) are counted, not checked, as the kernel skips them.
 *
 * <p>An entry whose bytes are right but which lies inside no function is reported apart, as
 * outside a function: when a weak function is overridden the linker keeps its code and its table
 * entry but drops its symbol. "Inside a function" is {@link org.mcountkit.core.pipeline.FunctionIndex#inFunction}: a sized
 * {@code STT_FUNC} symbol covers it, or one starts within the NOPs at the entry; Linux 6.15's
 * {@code scripts/sorttable} zeroes the entries its own reading of {@code nm -S} puts in no
 * function, and ftrace skips the zeros.
 */
public final class Verifier {

    private static final String START_MCOUNT_LOC = "__start_mcount_loc";
    private static final String STOP_MCOUNT_LOC = "__stop_mcount_loc";

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
        ElfFile file = ElfFiles.open(path);
        if (file.type() == ElfFile.ET_REL) {
            throw new InputException(
                    Failure.WRONG_FILE_TYPE,
                    "not a linked image (e_type " + file.type()
                            + "): verify checks executables and shared objects; list reads objects");
        }
        long start = System.nanoTime();
        ElfImage image = ElfImage.of(file, backends.require(file.target()));
        Verification result = new Check(image).run();
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
            boolean found = false;
            for (Section s : file.sections()) {
                boolean mcountLoc = s.name().equals(McountLocSections.TABLE);
                if ((mcountLoc || s.name().equals(TableSites.PATCHABLE_FUNCTION_ENTRIES)) && s.hasFileBytes()) {
                    found = true;
                    entries(s.name(), file.bytes(s), !mcountLoc);
                }
            }
            if (!found) {
                found = kernelRange();
            }
            if (!found) {
                diagnostics.add(Diagnostic.of(
                        Severity.WARNING,
                        "no " + McountLocSections.TABLE + " or " + TableSites.PATCHABLE_FUNCTION_ENTRIES
                                + " table: nothing to verify"));
            }
            return new Verification(
                    file.path(), image.machine(), checked, zeros, findings, outsideFunction, diagnostics);
        }

        /** A kernel image keeps its table inside {@code .init.data}, between two linker-script symbols. */
        private boolean kernelRange() {
            Symbol start = null;
            Symbol stop = null;
            for (Symbol s : file.symbols()) {
                if (s.name().equals(START_MCOUNT_LOC)) {
                    start = s;
                } else if (s.name().equals(STOP_MCOUNT_LOC)) {
                    stop = s;
                }
            }
            if (start == null
                    || stop == null
                    || !start.isInSection()
                    || start.sectionIndex() >= file.sections().size()) {
                return false;
            }
            Section holder = file.section(start.sectionIndex());
            long from = start.value() - holder.address();
            long to = stop.value() - holder.address();
            if (from < 0 || to < from || to > holder.size() || !holder.hasFileBytes()) {
                throw new InputException(
                        Failure.MALFORMED,
                        String.format(
                                "%s..%s (0x%x..0x%x) is not inside %s",
                                START_MCOUNT_LOC, STOP_MCOUNT_LOC, start.value(), stop.value(), holder.name()));
            }
            ByteBuffer bytes = file.bytes(holder);
            entries(START_MCOUNT_LOC, bytes.slice((int) from, (int) (to - from)).order(bytes.order()), false);
            return true;
        }

        private void entries(String table, ByteBuffer data, boolean patchable) {
            for (int at = 0; at + word <= data.limit(); at += word) {
                long address = word == 8 ? data.getLong(at) : data.getInt(at) & 0xffffffffL;
                if (address == 0) {
                    zeros++;
                    continue;
                }
                checked++;
                entry(table, at, address, patchable);
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
