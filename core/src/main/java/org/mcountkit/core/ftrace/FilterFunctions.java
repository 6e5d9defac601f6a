package org.mcountkit.core.ftrace;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.FunctionList;
import org.mcountkit.core.InputException;
import org.mcountkit.core.KernelRelease;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.pipeline.Backends;
import org.mcountkit.core.pipeline.ElfImage;
import org.mcountkit.core.pipeline.RelocatedEntry;
import org.mcountkit.core.pipeline.TableSites;
import org.mcountkit.core.postlink.TableWords;

/**
 * Works out a kernel's {@code available_filter_functions} from its vmlinux and module files: each
 * table word through {@link FtraceRules}, each record named as kallsyms names it at run time
 * ({@link Kallsyms} for vmlinux, {@link ModuleKallsyms} for a module).
 */
public final class FilterFunctions {

    private static final Set<String> IMAGE_SYMBOLS = Stream.concat(
                    Kallsyms.SYMBOLS.stream(),
                    Stream.of(
                            "linux_banner",
                            "kernel_config_data",
                            "kernel_config_data_end",
                            "__ibt_endbr_seal",
                            "_stext",
                            "_etext",
                            "_sinittext",
                            "_einittext",
                            "__init_begin",
                            "__init_end"))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private static final String INVALID = "__ftrace_invalid_address__";

    private final Backends backends;

    public FilterFunctions(Backends backends) {
        this.backends = backends;
    }

    /**
     * The records of {@code image} (a linked vmlinux) and {@code modules} (.ko files, in load order).
     *
     * @param config the kernel's {@code .config}, when the user gives one
     * @param release the release, when the user gives one (else the image's {@code linux_banner})
     * @throws InputException naming the file and the reason when one cannot be read as such
     */
    public FunctionList list(Path image, List<Path> modules, Optional<Path> config, Optional<KernelRelease> release) {
        try (ElfImage vmlinux = ElfImage.open(image, backends)) {
            if (vmlinux.relocatable()) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "a relocatable object (e_type " + vmlinux.file().type() + "): functions reads a linked"
                                + " vmlinux (give modules after it)");
            }
            ImageMemory memory = new ImageMemory(vmlinux.file(), IMAGE_SYMBOLS);
            String releaseSource = "--release";
            KernelRelease kernel;
            if (release.isPresent()) {
                kernel = release.get();
            } else {
                kernel = banner(memory)
                        .orElseThrow(() -> new InputException(
                                Failure.UNUSABLE_SITES,
                                "no linux_banner to read the release from (not a kernel image?): give --release"));
                releaseSource = "linux_banner";
            }
            KernelConfig kconfig = config.map(KernelConfig::read)
                    .or(() -> memory.between("kernel_config_data", "kernel_config_data_end")
                            .flatMap(b -> KernelConfig.embedded(bytes(b), "CONFIG_IKCONFIG")))
                    .orElse(KernelConfig.UNKNOWN);
            FtraceRules rules = FtraceRules.of(kernel, vmlinux.target(), kconfig, memory.has("__ibt_endbr_seal"));
            List<String> assumptions = new ArrayList<>(rules.assumptions());
            Optional<Kallsyms> kallsyms = Kallsyms.of(memory, vmlinux.target().pointerSize());
            if (kallsyms.isEmpty()) {
                assumptions.add("no kallsyms tables (CONFIG_KALLSYMS off): no record has a name");
            }
            List<FtraceRecord> records = new ArrayList<>(kernelRecords(vmlinux, memory, rules, kallsyms));
            for (Path module : modules) {
                records.addAll(moduleRecords(module, rules));
            }
            return new FunctionList(
                    image,
                    vmlinux.machine(),
                    kernel,
                    releaseSource,
                    kconfig.source(),
                    rules.sortsAtBoot(),
                    records,
                    assumptions);
        }
    }

    private static Optional<KernelRelease> banner(ImageMemory memory) {
        Optional<Long> at = memory.address("linux_banner");
        if (at.isEmpty()) {
            return Optional.empty();
        }
        long left = Math.min(200, memory.bytesLeftInSection(at.get()));
        byte[] b = bytes(memory.at(at.get(), left, "linux_banner"));
        return KernelRelease.ofBanner(new String(b, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** vmlinux's words between {@code __start_mcount_loc} and {@code __stop_mcount_loc}, in ftrace's order. */
    private static List<FtraceRecord> kernelRecords(
            ElfImage vmlinux, ImageMemory memory, FtraceRules rules, Optional<Kallsyms> kallsyms) {
        TableWords.Table table = TableWords.of(vmlinux).stream()
                .filter(t -> t.name().equals(TableWords.START_MCOUNT_LOC))
                .findFirst()
                .orElseThrow(() -> new InputException(
                        Failure.UNUSABLE_SITES,
                        "no " + TableWords.START_MCOUNT_LOC + ".." + TableWords.STOP_MCOUNT_LOC
                                + " table: not a kernel built with dynamic ftrace"));
        long[] values = table.values().clone();
        for (int i = 0; i < values.length; i++) {
            values[i] &= vmlinux.target().addressMask();
        }
        if (rules.sortsAtBoot()) {
            values = java.util.Arrays.stream(values)
                    .boxed()
                    .sorted(Long::compareUnsigned)
                    .mapToLong(Long::longValue)
                    .toArray();
        }
        Range text = Range.of(memory, "_stext", "_etext");
        Range initText = Range.of(memory, "_sinittext", "_einittext");
        Range init = Range.of(memory, "__init_begin", "__init_end");
        List<FtraceRecord> records = new ArrayList<>(values.length);
        for (long word : values) {
            if (word == 0) {
                records.add(new FtraceRecord(0, "", Optional.empty(), 0, Optional.empty(), RecordFate.ZERO));
                continue;
            }
            if (rules.skipsOutsideText() && !text.holds(word) && !initText.holds(word)) {
                records.add(new FtraceRecord(word, "", Optional.empty(), 0, Optional.empty(), RecordFate.OUTSIDE_TEXT));
                continue;
            }
            long ip = word & rules.callAdjustMask();
            // kallsyms answers for kernel text (is_ksym_addr); anything else is looked up among modules and found
            // nowhere.
            Optional<Kallsyms.Hit> hit =
                    text.holds(ip) || initText.holds(ip) ? kallsyms.flatMap(k -> k.lookup(ip)) : Optional.empty();
            FtraceRecord named =
                    named(ip, hit, Optional.empty(), rules, vmlinux.target().pointerSize());
            if (init.holds(ip)) {
                named = new FtraceRecord(
                        ip,
                        named.listedName(),
                        named.symbol(),
                        named.offset(),
                        Optional.empty(),
                        RecordFate.INIT_FREED);
            }
            records.add(named);
        }
        return records;
    }

    /** The record at {@code ip} named as {@code print_rec()} names it. */
    private static FtraceRecord named(
            long ip, Optional<Kallsyms.Hit> hit, Optional<String> module, FtraceRules rules, int pointerSize) {
        OptionalLong max = rules.maxOffset();
        if (max.isPresent()) {
            long offset = hit.map(Kallsyms.Hit::offset).orElse(0L);
            if (hit.isEmpty() || Long.compareUnsigned(offset, max.getAsLong()) > 0) {
                return new FtraceRecord(
                        ip, INVALID + "_" + offset, hit.map(Kallsyms.Hit::name), offset, module, RecordFate.INVALID);
            }
            return new FtraceRecord(
                    ip, hit.get().name(), Optional.of(hit.get().name()), offset, module, RecordFate.LISTED);
        }
        if (hit.isEmpty()) {
            // %ps of an address kallsyms cannot name: the address alone, without the module.
            long shown = pointerSize == 8 ? ip : ip & 0xffffffffL;
            return new FtraceRecord(ip, "0x" + Long.toHexString(shown), Optional.empty(), 0, module, RecordFate.LISTED);
        }
        return new FtraceRecord(
                ip, hit.get().name(), Optional.of(hit.get().name()), hit.get().offset(), module, RecordFate.LISTED);
    }

    /** A module's records: its table's words placed through their relocations, sorted as ftrace_module_init sorts them. */
    private List<FtraceRecord> moduleRecords(Path path, FtraceRules rules) {
        try (ElfImage module = ElfImage.open(path, backends)) {
            if (!module.relocatable()) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "not a module (e_type " + module.file().type() + "): functions reads .ko files after vmlinux");
            }
            ElfFile file = module.file();
            String fallback =
                    path.getFileName().toString().replaceFirst("\\.ko$", "").replace('-', '_');
            ModuleKallsyms kallsyms = ModuleKallsyms.of(file, rules, fallback);
            Optional<Section> table =
                    file.section(McountLocSections.TABLE).or(() -> file.section(TableSites.PATCHABLE_FUNCTION_ENTRIES));
            if (table.isEmpty() || !table.get().hasFileBytes()) {
                return List.of();
            }
            ByteBuffer data = file.bytes(table.get());
            Map<Long, Relocation> byOffset = new HashMap<>();
            for (Section rs : module.relocationSectionsOf(table.get().index())) {
                for (Relocation r : module.relocations(rs)) {
                    byOffset.putIfAbsent(r.offset(), r);
                }
            }
            ElfLayout layout = ElfLayout.of(module.target().elfClass());
            int word = layout.wordSize();
            int none = module.abi().noneRelocation();
            record Placed(ModuleKallsyms.Region region, long ip) {}
            List<Placed> placed = new ArrayList<>();
            int zeros = 0;
            for (long at = 0; at + word <= data.limit(); at += word) {
                Relocation r = byOffset.get(at);
                if (r == null || r.type() == none) {
                    // Nothing relocates the word: the module's table holds it as stored.
                    if (layout.word(data, (int) at) == 0) {
                        zeros++;
                        continue;
                    }
                    throw new InputException(
                            Failure.UNUSABLE_SITES,
                            String.format(
                                    "%s+0x%x holds a value no relocation places",
                                    table.get().name(), at));
                }
                RelocatedEntry entry = RelocatedEntry.of(module, data, r);
                if (!(entry instanceof RelocatedEntry.Place p)) {
                    throw new InputException(
                            Failure.UNUSABLE_SITES,
                            String.format(
                                    "%s+0x%x: %s", table.get().name(), at, ((RelocatedEntry.Unplaced) entry).reason()));
                }
                Optional<ModuleKallsyms.Placement> where =
                        kallsyms.placement(p.section().index());
                if (where.isEmpty()) {
                    throw new InputException(
                            Failure.UNUSABLE_SITES,
                            String.format(
                                    "%s+0x%x points into %s, which the module loader does not load as code",
                                    table.get().name(), at, p.section().name()));
                }
                placed.add(
                        new Placed(where.get().region(), (where.get().offset() + p.offset()) & rules.callAdjustMask()));
            }
            placed.sort(Comparator.comparing(Placed::region).thenComparingLong(Placed::ip));
            List<FtraceRecord> records = new ArrayList<>();
            Optional<String> name = Optional.of(kallsyms.name());
            for (int z = 0; z < zeros; z++) {
                records.add(new FtraceRecord(0, "", Optional.empty(), 0, name, RecordFate.ZERO));
            }
            for (Placed p : placed) {
                if (p.region() == ModuleKallsyms.Region.INIT_TEXT) {
                    records.add(new FtraceRecord(p.ip(), "", Optional.empty(), 0, name, RecordFate.MODULE_INIT_FREED));
                } else {
                    records.add(named(
                            p.ip(),
                            kallsyms.lookup(p.ip()),
                            name,
                            rules,
                            module.target().pointerSize()));
                }
            }
            return records;
        } catch (FileInputException e) {
            throw e;
        } catch (InputException e) {
            throw new FileInputException(path, e.failure(), e.getMessage());
        }
    }

    /** An address range between two linker-script symbols; empty when the image lacks either. */
    private record Range(long from, long to) {
        static Range of(ImageMemory memory, String from, String to) {
            Optional<Long> a = memory.address(from);
            Optional<Long> b = memory.address(to);
            return a.isPresent() && b.isPresent() ? new Range(a.get(), b.get()) : new Range(0, 0);
        }

        boolean holds(long address) {
            return Long.compareUnsigned(address, from) >= 0 && Long.compareUnsigned(address, to) < 0;
        }
    }
}
