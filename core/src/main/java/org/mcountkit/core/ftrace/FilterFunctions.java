package org.mcountkit.core.ftrace;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.FunctionList;
import org.mcountkit.core.InputException;
import org.mcountkit.core.KernelRelease;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.image.ElfImage;
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
                            "__init_end",
                            TableWords.START_MCOUNT_LOC,
                            TableWords.STOP_MCOUNT_LOC))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

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
        return list(image, Optional.empty(), modules, config, release);
    }

    /**
     * As {@link #list(Path, List, Optional, Optional)}, the symbols' addresses from {@code systemMap}
     * when given (an image stripped of its symbol table).
     *
     * @throws FileInputException naming the map when it cannot be read, or does not fit the image
     *     (its {@code linux_banner} is not the kernel's banner)
     */
    public FunctionList list(
            Path image,
            Optional<Path> systemMap,
            List<Path> modules,
            Optional<Path> config,
            Optional<KernelRelease> release) {
        try (ElfImage vmlinux = ElfImage.open(image, backends)) {
            if (vmlinux.relocatable()) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "a relocatable object (e_type " + vmlinux.file().type() + "): functions reads a linked"
                                + " vmlinux (give modules after it)");
            }
            ImageMemory memory = systemMap
                    .map(m -> new ImageMemory(vmlinux, SystemMap.read(m, IMAGE_SYMBOLS), IMAGE_SYMBOLS))
                    .orElseGet(() -> new ImageMemory(vmlinux, IMAGE_SYMBOLS));
            if (systemMap.isPresent()) {
                requireBanner(memory, systemMap.get(), image);
            }
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
                records.addAll(new ModuleRecords(backends).of(module, rules));
            }
            return new FunctionList(
                    image,
                    vmlinux.machine(),
                    kernel,
                    releaseSource,
                    kconfig.source(),
                    rules.sortsAtBoot(),
                    rules.memory(),
                    records,
                    assumptions);
        }
    }

    /**
     * A map of another build puts {@code linux_banner} where the image has no banner: the one
     * symbol whose bytes say whether map and image belong together.
     */
    private static void requireBanner(ImageMemory memory, Path map, Path image) {
        Optional<KernelRelease> banner;
        try {
            banner = banner(memory);
        } catch (InputException e) {
            banner = Optional.empty();
        }
        if (banner.isEmpty()) {
            throw new FileInputException(
                    map,
                    Failure.MALFORMED,
                    "does not fit " + image + ": the image has no kernel banner at its linux_banner");
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
        Optional<Long> start = memory.address(TableWords.START_MCOUNT_LOC);
        Optional<Long> stop = memory.address(TableWords.STOP_MCOUNT_LOC);
        TableWords.Table table = TableWords.of(vmlinux).stream()
                .filter(t -> t.name().equals(TableWords.START_MCOUNT_LOC))
                .findFirst()
                .or(() -> start.isPresent() && stop.isPresent()
                        ? Optional.of(TableWords.kernelRange(vmlinux, start.get(), stop.get()))
                        : Optional.empty())
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
            FtraceRecord named = PrintRec.named(
                    ip, hit, Optional.empty(), rules, vmlinux.target().pointerSize());
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
