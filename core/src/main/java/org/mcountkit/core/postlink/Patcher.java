package org.mcountkit.core.postlink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.SiteState;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.AtomicFile;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.pipeline.Backends;
import org.mcountkit.core.pipeline.ElfFiles;
import org.mcountkit.core.pipeline.Lister;
import org.mcountkit.core.pipeline.TableSites;

/**
 * Rewrites every recorded site of a file to the backend's NOP or to its call, as ftrace does at
 * run time, checking the old bytes first the way {@code ftrace_modify_code} does: a site must
 * hold the call to the hook, a NOP, or (for {@code --call}) the call to the target already;
 * anything else refuses the whole file, which is then left byte for byte as it was. Sites come
 * from the file's tables, or, unless {@code tableOnly}, from everything {@code list} finds.
 * In a relocatable object a NOPed call's relocations are retyped to the machine's NONE type (the
 * linker would otherwise write the call's displacement into the NOP); calls cannot be put back
 * in objects, as their displacement is the linker's to fill in. A patchable entry's NOP pad is
 * given the call form of its length where the backend has one (arm64's two-NOP pad becomes
 * {@code mov x9, x30; bl}, as the kernel writes it) and is left as it is otherwise.
 */
public final class Patcher {

    /** What to write at each site. */
    public enum Mode {
        /** The backend's NOP of the site's length. */
        NOP,
        /** The backend's call to the hook, or to {@code target}. */
        CALL
    }

    /**
     * {@code mode}: NOP or CALL; {@code tableOnly}: only sites named by the file's tables;
     * {@code target}: the symbol {@code CALL} calls instead of the hook (null for the hook); with
     * {@code NOP}, calls to it are accepted as old bytes too.
     */
    public record Options(Mode mode, boolean tableOnly, String target) {
    }

    private final Backends backends;

    public Patcher(Backends backends) {
        this.backends = backends;
    }

    /**
     * Patches one file.
     *
     * @throws InputException when the file cannot be read or written, or the call target is unknown
     */
    public PatchResult patch(Path path, Options options) {
        ElfFile file = ElfFiles.open(path);
        ArchBackend backend = backends.require(file.target());
        boolean relocatable = file.type() == ElfFile.ET_REL;
        if (relocatable && options.mode() == Mode.CALL) {
            throw new InputException("--call rewrites linked images only: in an object the linker fills in the call");
        }
        List<CallSite> sites = options.tableOnly() ? new TableSites(backend).read(file).sites()
                : new Lister(backends).list(path).sites();
        return new Run(file, backend, options).apply(sites);
    }

    /** The state of patching one file. */
    private static final class Run {
        private final ElfFile file;
        private final ArchBackend backend;
        private final Options options;
        private final ElfTarget target;
        private final PatchEncodings encodings;
        private final boolean relocatable;
        private final long hook;
        private final long callTarget;
        private final ElfAppender out;
        private final List<Diagnostic> diagnostics = new ArrayList<>();
        private final List<PatchResult.Refusal> refused = new ArrayList<>();
        /** File ranges of sites already patched or found as wanted: start to end. */
        private final TreeMap<Long, Long> covered = new TreeMap<>();
        private int patched;
        private int unchanged;
        private int skipped;

        Run(ElfFile file, ArchBackend backend, Options options) {
            this.file = file;
            this.backend = backend;
            this.options = options;
            this.target = file.target();
            this.encodings = backend.encodings(target);
            this.relocatable = file.type() == ElfFile.ET_REL;
            this.hook = relocatable ? -1 : hookAddress();
            this.callTarget = options.mode() == Mode.CALL || options.target() != null ? callTarget() : -1;
            this.out = ElfAppender.inPlace(file);
        }

        PatchResult apply(List<CallSite> sites) {
            // Patchable entries first: their with-regs pair covers a bl that is also decoded as a site.
            for (CallSite site : sites) {
                if (site.source() == SiteSource.PATCHABLE_FUNCTION_ENTRIES) {
                    site(site);
                }
            }
            for (CallSite site : sites) {
                if (site.source() != SiteSource.PATCHABLE_FUNCTION_ENTRIES) {
                    site(site);
                }
            }
            String machine = backend.machineName(target);
            if (!refused.isEmpty()) {
                String count = refused.size() + (refused.size() == 1 ? " site holds" : " sites hold");
                diagnostics.add(Diagnostic.of(Severity.ERROR, count
                        + " neither the expected call nor a NOP: file left unchanged"));
                return new PatchResult(file.path(), machine, 0, unchanged, skipped, refused, diagnostics, false);
            }
            if (patched > 0) {
                try {
                    AtomicFile.replace(file.path(), out::writeTo);
                } catch (IOException e) {
                    throw new InputException("cannot write: " + e.getMessage(), e);
                }
            }
            return new PatchResult(file.path(), machine, patched, unchanged, skipped, refused, diagnostics,
                    patched > 0);
        }

        private void site(CallSite site) {
            Section code = file.section(site.sectionIndex());
            ByteBuffer bytes = file.bytes(code);
            int offset = (int) site.offset();
            long codeAddress = code.address();
            boolean entry = site.source() == SiteSource.PATCHABLE_FUNCTION_ENTRIES;
            // A patchable entry's length is its NOP pad, or once called, the call form there.
            int length = entry && site.length() > 0 ? site.length() : length(site, bytes, offset);
            long fileOffset = code.offset() + offset;
            if (insideCovered(fileOffset, length)) {
                // The bl of an arm64 with-regs pair is also decoded as a call: its entry covered it.
                return;
            }
            if (offset + length > bytes.limit()) {
                refused.add(new PatchResult.Refusal(site.section(), site.offset(), site.address(), site.function(),
                        "(past the end of " + site.section() + ")", expected(site.address())));
                return;
            }
            byte[] wanted;
            try {
                wanted = options.mode() == Mode.NOP ? encodings.nop(length)
                        : encodings.call(site.address(), callTarget, length);
            } catch (EncodingException e) {
                if (entry) {
                    skipped++;
                    diagnostics.add(Diagnostic.at(Severity.NOTE, site.section(), site.offset(), "patchable entry of "
                            + length + " bytes left as it is: " + e.getMessage()));
                    return;
                }
                throw new InputException(site.section() + "+0x" + Long.toHexString(site.offset()) + ": "
                        + e.getMessage());
            }
            byte[] old = new byte[length];
            bytes.get(offset, old);
            if (Arrays.equals(old, wanted)) {
                unchanged++;
                covered.put(fileOffset, fileOffset + length);
                return;
            }
            SiteState state = backend.classify(target, bytes, offset, codeAddress, hook);
            if (entry && state == SiteState.OTHER && nopRun(bytes, offset, length) >= length) {
                // A pad of shorter NOPs (gcc's 90s for -fpatchable-function-entry on x86) is a NOP too;
                // elsewhere only the backend's own NOP is, as ftrace_modify_code checks exact bytes.
                state = SiteState.NOP;
            }
            boolean callsTarget = callTarget >= 0
                    && backend.classify(target, bytes, offset, codeAddress, callTarget) == SiteState.CALL;
            if (state == SiteState.OTHER && !callsTarget) {
                refused.add(new PatchResult.Refusal(site.section(), site.offset(), site.address(), site.function(),
                        HexFormat.ofDelimiter(" ").formatHex(old), expected(site.address())));
                return;
            }
            if (options.mode() == Mode.NOP && state == SiteState.NOP) {
                unchanged++;
                covered.put(fileOffset, fileOffset + length);
                return;
            }
            out.patch(fileOffset, wanted);
            covered.put(fileOffset, fileOffset + length);
            if (relocatable) {
                retireRelocations(code, site.offset(), length);
            }
            patched++;
        }

        private boolean insideCovered(long start, int length) {
            Map.Entry<Long, Long> before = covered.floorEntry(start + length - 1);
            return before != null && before.getValue() > start;
        }

        /**
         * The site's length: as measured when the site was found in the code (decoded, or checked
         * against a relocation), else as the backend reads the bytes (a linker may have left a
         * longer call form than a table entry's default); a NOP there is never overwritten past
         * its own run of NOPs, so a shorter relaxed site cannot take the next instruction with it.
         */
        private int length(CallSite site, ByteBuffer bytes, int offset) {
            boolean measured = site.source() == SiteSource.DECODED || site.source() == SiteSource.RELOCATION;
            int length = measured ? site.length() : backend.siteLength(target, bytes, offset);
            int nops = nopRun(bytes, offset, length);
            return nops > 0 && nops < length ? nops : length;
        }

        /** Bytes of NOPs from {@code offset}, counted up to at least {@code limit}. */
        private int nopRun(ByteBuffer bytes, int offset, int limit) {
            int nops = 0;
            while (nops < limit && offset + nops < bytes.limit()) {
                int nop = backend.nopLength(target, bytes, offset + nops);
                if (nop <= 0) {
                    break;
                }
                nops += nop;
            }
            return nops;
        }

        /** Retypes to NONE every relocation that patches bytes inside the NOPed call. */
        private void retireRelocations(Section code, long offset, int length) {
            int none = backend.noneRelocationType(target);
            int symtab = file.symbolTable().map(Section::index).orElse(-1);
            for (Section rs : file.sections()) {
                if (!rs.isRelocationSection() || rs.info() != code.index() || rs.link() != symtab) {
                    continue;
                }
                List<Relocation> list = file.relocations(rs);
                for (int i = 0; i < list.size(); i++) {
                    Relocation r = list.get(i);
                    if (r.offset() >= offset && r.offset() < offset + length) {
                        out.retypeRelocation(rs, i, none);
                    }
                }
            }
        }

        private String expected(long address) {
            StringBuilder text = new StringBuilder();
            if (hook >= 0) {
                text.append("call ").append(hex(safeCall(address, hook))).append(" or ");
            } else {
                text.append("a call or ");
            }
            if (callTarget >= 0 && callTarget != hook) {
                text.append("call ").append(hex(safeCall(address, callTarget))).append(" or ");
            }
            return text.append("nop ").append(hex(encodings.nop(encodings.siteLength()))).toString();
        }

        private byte[] safeCall(long from, long to) {
            try {
                return encodings.call(from, to);
            } catch (EncodingException e) {
                return new byte[0];
            }
        }

        private static String hex(byte[] bytes) {
            return "(" + HexFormat.ofDelimiter(" ").formatHex(bytes) + ")";
        }

        /** The defined hook's address in a linked image, or -1 when it is undefined (called through the PLT). */
        private long hookAddress() {
            for (Symbol s : file.symbols()) {
                if (backend.hookNames(target).contains(s.name()) && s.isInSection()) {
                    return s.value();
                }
            }
            return -1;
        }

        private long callTarget() {
            if (options.target() == null) {
                if (hook < 0) {
                    throw new InputException("no hook (" + String.join(", ", backend.hookNames(target).stream()
                            .sorted().toList()) + ") is defined in this image (called through the PLT?):"
                            + " name the function to call with --target");
                }
                return hook;
            }
            for (Symbol s : file.symbols()) {
                if (s.name().equals(options.target()) && s.isInSection()) {
                    return s.value();
                }
            }
            throw new InputException("--target " + options.target() + ": no such symbol defined in this image");
        }
    }
}
