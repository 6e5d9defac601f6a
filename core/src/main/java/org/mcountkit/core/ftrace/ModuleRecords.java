package org.mcountkit.core.ftrace;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.InputException;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.scan.RelocatedEntry;
import org.mcountkit.core.scan.TableSites;

/**
 * A module's records, as {@code ftrace_module_init()} makes them when the module loads: its
 * table's words placed through their relocations into the loader's layout ({@link ModuleKallsyms}),
 * sorted, those of the init region dropped after init, each named by the module's kallsyms.
 */
final class ModuleRecords {

    private final Backends backends;

    ModuleRecords(Backends backends) {
        this.backends = backends;
    }

    /** A module's records: its table's words placed through their relocations, sorted as ftrace_module_init sorts them. */
    List<FtraceRecord> of(Path path, FtraceRules rules) {
        try (ElfImage module = ElfImage.open(path, backends)) {
            if (!module.relocatable()) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "not a module (e_type " + module.file().type() + "): functions reads .ko files after vmlinux");
            }
            ElfFile file = module.file();
            String fallback =
                    path.getFileName().toString().replaceFirst("\\.ko$", "").replace('-', '_');
            ModuleKallsyms kallsyms = ModuleKallsyms.of(file, rules, fallback, Arm64ModulePlts.of(module, rules));
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
            record Placed(ModuleKallsyms.Region region, long ip) {}
            List<Placed> placed = new ArrayList<>();
            int zeros = 0;
            for (long at = 0; at + word <= data.limit(); at += word) {
                Relocation r = byOffset.get(at);
                RelocatedEntry entry = r == null ? new RelocatedEntry.Zero() : RelocatedEntry.of(module, data, r);
                if (entry instanceof RelocatedEntry.Zero) {
                    // Nothing relocates the word, or its relocation writes 0: the table holds it as stored.
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
                    records.add(PrintRec.named(
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
}
