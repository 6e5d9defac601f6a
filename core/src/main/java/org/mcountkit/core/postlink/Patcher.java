package org.mcountkit.core.postlink;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Code;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.pipeline.Millis;
import org.mcountkit.core.pipeline.RelocationRetirer;
import org.mcountkit.core.pipeline.Rewrite;
import org.mcountkit.core.pipeline.Rewriting;
import org.mcountkit.core.scan.CallTargets;
import org.mcountkit.core.scan.CodeReader;
import org.mcountkit.core.scan.SiteState;
import org.mcountkit.core.scan.Sites;
import org.mcountkit.core.scan.TableSites;

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

    private final Rewriting rewriting;

    /** A patcher that reads and writes files with {@code rewriting}. */
    public Patcher(Rewriting rewriting) {
        this.rewriting = rewriting;
    }

    /**
     * Patches one file.
     *
     * @throws InputException when the file cannot be read or written, or the call target is unknown
     */
    public PatchResult patch(Path path, PatchOptions options) {
        return Rewrite.of(path, existing -> patch(path, existing, options));
    }

    private PatchResult patch(Path path, AtomicFile.Existing existing, PatchOptions options) {
        long start = System.nanoTime();
        try (ElfImage image = ElfImage.openForReplacing(existing, rewriting.backends(), rewriting.races())) {
            if (image.relocatable() && options.mode() == PatchMode.CALL) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "--call rewrites linked images only: in an object the linker fills in the call");
            }
            List<CallSite> sites = options.tableOnly()
                    ? TableSites.of(image).sites()
                    : Sites.of(image).listed();
            PatchResult result = new Run(image, options, existing, rewriting.races()).apply(sites);
            if (rewriting.log().isDebugEnabled()) {
                rewriting
                        .log()
                        .debug(
                                "{}: {}; {} of {} site(s) patched to {}, {} already so, {} skipped, {} refused{}; {} ms",
                                path,
                                image.machine(),
                                result.patched(),
                                sites.size(),
                                options.mode(),
                                result.unchanged(),
                                result.skipped(),
                                result.refused().size(),
                                result.written() ? "" : ", file unchanged",
                                Millis.since(start));
            }
            return result;
        }
    }

    /** The state of patching one file. */
    private static final class Run {
        private final AtomicFile.Existing existing;
        private final RaceWindows races;
        private final ElfImage image;
        private final ElfFile file;
        private final CodeReader reader;
        private final PatchOptions options;
        private final boolean relocatable;
        private final CallTargets hooks;
        /** What sites should call ({@code CALL}) or may already call; empty when nothing is to be called. */
        private final Optional<Target> callTarget;

        private final Map<Long, String> expectedCalls = new LinkedHashMap<>();
        private final ElfAppender out;
        private final RelocationRetirer retirer;
        private final List<Diagnostic> diagnostics = new ArrayList<>();
        private final List<PatchResult.Refusal> refused = new ArrayList<>();
        /** File ranges of sites already patched or found as wanted: start to end. */
        private final TreeMap<Long, Long> covered = new TreeMap<>();

        private int patched;
        private int unchanged;
        private int skipped;

        Run(ElfImage image, PatchOptions options, AtomicFile.Existing existing, RaceWindows races) {
            this.existing = existing;
            this.races = races;
            this.image = image;
            this.file = image.file();
            this.reader = CodeReader.of(image);
            this.options = options;
            this.relocatable = image.relocatable();
            this.hooks = CallTargets.hooksOf(image);
            if (!relocatable) {
                expectedCalls.putAll(image.hooks().defined());
            }
            this.callTarget =
                    options.mode() == PatchMode.CALL || options.target().isPresent()
                            ? Optional.of(callTarget())
                            : Optional.empty();
            callTarget.ifPresent(t -> options.target().ifPresent(name -> expectedCalls.putIfAbsent(t.address(), name)));
            this.out = ElfAppender.inPlace(file, image.abi().relocationInfo());
            this.retirer = new RelocationRetirer(image, out);
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
            String machine = image.machine();
            if (!refused.isEmpty()) {
                String count = refused.size() + (refused.size() == 1 ? " site holds" : " sites hold");
                diagnostics.add(Diagnostic.of(
                        Severity.ERROR, count + " neither the expected call nor a NOP: file left unchanged"));
                return new PatchResult(file.path(), machine, 0, unchanged, skipped, refused, diagnostics, false);
            }
            if (patched > 0) {
                retirer.retire();
                ElfFiles.replace(existing, true, out, races).ifPresent(diagnostics::add);
            }
            return new PatchResult(
                    file.path(), machine, patched, unchanged, skipped, refused, diagnostics, patched > 0);
        }

        private void site(CallSite site) {
            Section code = file.section(site.sectionIndex());
            Code bytes = image.codeAt(code, site.offset());
            PatchEncodings encodings = reader.encodings(bytes.mode());
            int offset = (int) site.offset();
            boolean entry = site.source() == SiteSource.PATCHABLE_FUNCTION_ENTRIES;
            // A patchable entry's length is its NOP pad, or once called, the call form there.
            int length = entry && site.length() > 0 ? site.length() : length(site, bytes, offset);
            long fileOffset = code.offset() + offset;
            if (insideCovered(fileOffset, length)) {
                // The bl of an arm64 with-regs pair is also decoded as a call: its entry covered it.
                return;
            }
            if (!bytes.has(offset, length)) {
                refused.add(new PatchResult.Refusal(
                        site.section(),
                        site.offset(),
                        site.address(),
                        site.function(),
                        null,
                        reader.expected(site.address(), bytes.mode(), expectedCalls)));
                return;
            }
            byte[] wanted;
            try {
                if (options.mode() == PatchMode.CALL) {
                    Target t = callTarget.orElseThrow();
                    wanted = encodings.call(site.address(), t.address() + t.localEntryOffset(), length, t.mode());
                } else {
                    // An object's sites have no run-time address yet.
                    wanted = relocatable ? encodings.nop(length) : encodings.nop(site.address(), length);
                }
            } catch (EncodingException e) {
                if (entry) {
                    skipped++;
                    diagnostics.add(Diagnostic.at(
                            Severity.NOTE,
                            site.section(),
                            site.offset(),
                            "patchable entry of " + length + " bytes left as it is: " + e.getMessage()));
                    return;
                }
                throw new InputException(
                        Failure.UNUSABLE_SITES,
                        site.section() + "+0x" + Long.toHexString(site.offset()) + ": " + e.getMessage());
            }
            byte[] old = new byte[length];
            bytes.bytes().get(offset, old);
            if (Arrays.equals(old, wanted)) {
                unchanged++;
                covered.put(fileOffset, fileOffset + length);
                return;
            }
            SiteState state = reader.state(bytes, offset, hooks);
            if (entry && state == SiteState.OTHER && reader.nopRun(bytes, offset, length) >= length) {
                // A pad of shorter NOPs (gcc's 90s for -fpatchable-function-entry on x86) is a NOP too;
                // elsewhere only the backend's own NOP is, as ftrace_modify_code checks exact bytes.
                state = SiteState.NOP;
            }
            boolean callsTarget = callTarget.isPresent()
                    && reader.state(
                                    bytes,
                                    offset,
                                    CallTargets.at(callTarget.get().address()))
                            == SiteState.CALL;
            if (state == SiteState.OTHER && !callsTarget) {
                refused.add(new PatchResult.Refusal(
                        site.section(),
                        site.offset(),
                        site.address(),
                        site.function(),
                        old,
                        reader.expected(site.address(), bytes.mode(), expectedCalls)));
                return;
            }
            if (options.mode() == PatchMode.NOP && state == SiteState.NOP) {
                unchanged++;
                covered.put(fileOffset, fileOffset + length);
                return;
            }
            out.patch(fileOffset, wanted);
            covered.put(fileOffset, fileOffset + length);
            if (relocatable) {
                retirer.add(code.index(), site.offset(), length);
            }
            patched++;
        }

        private boolean insideCovered(long start, int length) {
            Map.Entry<Long, Long> before = covered.floorEntry(start + length - 1);
            return before != null && before.getValue() > start;
        }

        /**
         * The site's length: as measured when the site was found in the code (decoded, or checked
         * against a relocation), else as its bytes read (a linker may have left a longer call form
         * than a table entry's default); a NOP there is never overwritten past its own run of NOPs,
         * so a shorter relaxed site cannot take the next instruction with it.
         */
        private int length(CallSite site, Code bytes, int offset) {
            boolean measured = site.source() == SiteSource.DECODED || site.source() == SiteSource.RELOCATION;
            int length = measured ? site.length() : reader.siteLength(bytes, offset);
            int nops = reader.nopRun(bytes, offset, length);
            return nops > 0 && nops < length ? nops : length;
        }

        /**
         * Where {@code --call} calls: the function's address, its instruction set, and how far in
         * a call from this code enters it ({@link org.mcountkit.api.ArchBackend#localEntryOffset}).
         */
        private record Target(long address, InstructionSet mode, long localEntryOffset) {}

        private Target target(long address, Symbol function) {
            return new Target(
                    address,
                    image.backend().functionMode(image.target(), function),
                    image.backend().localEntryOffset(image.target(), function));
        }

        private Target callTarget() {
            if (options.target().isEmpty()) {
                if (image.hooks().defined().isEmpty()) {
                    throw new InputException(
                            Failure.UNUSABLE_SITES,
                            "no hook ("
                                    + String.join(
                                            ", ", new TreeSet<>(image.abi().hooks()))
                                    + ") is defined in this image (called through the PLT?): name the function to call"
                                    + " with --target");
                }
                long hook = image.hooks().defined().keySet().iterator().next();
                return target(hook, image.hooks().definitionAt(hook));
            }
            for (Symbol named : file.symbols()) {
                Symbol s = image.atCode(named);
                if (s.name().equals(options.target().get()) && s.isInSection()) {
                    return target(image.backend().functionAddress(image.target(), s), s);
                }
            }
            throw new InputException(
                    Failure.UNUSABLE_SITES,
                    "--target " + options.target().get() + ": no such symbol defined in this image");
        }
    }
}
