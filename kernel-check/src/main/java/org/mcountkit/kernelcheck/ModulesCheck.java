package org.mcountkit.kernelcheck;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.mcountkit.testkit.TableOracle;

/**
 * --modules: per module of the mcountkit kernel, its table entries (from the .ko, through jelf) and
 * how many lie in init text (freed once the module has loaded, so no longer listed), the lines
 * available_filter_functions had for it while loaded (each entry outside init text must give
 * exactly one), whether it loaded and unloaded, the trace lines counted while its file system was
 * used; {@code mcountkit verify} on every .ko of both builds;
 * each .ko's table against the same .ko of the C build (with --per-link the only check that each
 * module's table recorded after its link is the per-object one).
 */
final class ModulesCheck {

    private ModulesCheck() {}

    /** The section of each entry of a .ko's {@code __mcount_loc} (module_entry_sections). */
    static List<String> entrySections(Path ko) {
        return TableOracle.entries(ko, "__mcount_loc").stream()
                .map(TableOracle.Entry::section)
                .toList();
    }

    /** A .ko's entries as section+offset, sorted: per object and per link record them in different orders. */
    static List<String> places(Path ko) {
        return ObjectTables.entryPlaces(ko).stream().sorted().toList();
    }

    /**
     * The modules whose .ko holds other entries than the same .ko of the C build (or whose C .ko
     * is missing); {@link WeakModule}'s must hold the C build's but its weak body's one, which
     * prune zeroed.
     */
    static List<String> unequalTables(Path cDir, Path mDir, List<Initramfs.Module> modules) {
        return modules.stream()
                .filter(m -> {
                    if (!Files.isRegularFile(cDir.resolve(m.file()))) {
                        return true;
                    }
                    List<String> c = places(cDir.resolve(m.file()));
                    List<String> mine = places(mDir.resolve(m.file()));
                    return m.name().equals(WeakModule.NAME)
                            ? VmlinuxDiff.minus(c, mine).size() != 1
                                    || !VmlinuxDiff.minus(mine, c).isEmpty()
                            : !c.equals(mine);
                })
                .map(Initramfs.Module::name)
                .toList();
    }

    /** For each unequal module, the entries only one build has ("-" the C build's, "+" mcountkit's). */
    private static List<String> tableDiff(Path cDir, Path mDir, List<String> unequal, List<Initramfs.Module> modules) {
        List<String> lines = new ArrayList<>();
        for (Initramfs.Module m : modules) {
            if (!unequal.contains(m.name())) {
                continue;
            }
            List<String> c = Files.isRegularFile(cDir.resolve(m.file())) ? places(cDir.resolve(m.file())) : List.of();
            List<String> mine = places(mDir.resolve(m.file()));
            lines.add(m.file());
            VmlinuxDiff.minus(c, mine).forEach(e -> lines.add("- " + e));
            VmlinuxDiff.minus(mine, c).forEach(e -> lines.add("+ " + e));
        }
        return lines;
    }

    /** The 4th field of the initramfs's "km WHAT NAME N" line for {@code name}. */
    static Optional<String> km(List<String> boot, String what, String name) {
        for (String line : boot) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].equals("km") && f[1].equals(what) && f[2].equals(name)) {
                return Optional.of(f[3]);
            }
        }
        return Optional.empty();
    }

    /**
     * Why a loaded module's count of available_filter_functions lines is wrong, if it is: it lists
     * its table's entries, less those in .init.text where the machine's module loader frees that
     * section (and ftrace its entries) after the init function.
     */
    static Optional<String> listedWrong(Machine machine, String name, List<String> sections, Optional<String> listed) {
        long init = sections.stream().filter(".init.text"::equals).count();
        long expected = machine.moduleInitFreed() ? sections.size() - init : sections.size();
        if (listed.equals(Optional.of(Long.toString(expected)))) {
            return Optional.empty();
        }
        return Optional.of(name + ": " + listed.orElse("no") + " lines in available_filter_functions, not " + expected
                + (machine.moduleInitFreed()
                        ? " (its entries outside .init.text)"
                        : " (all its entries: this machine's module loader keeps .init.text)"));
    }

    static Optional<String> left(List<String> boot) {
        for (String line : boot) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 3 && f[0].equals("km") && f[1].equals("left")) {
                return Optional.of(f[2]);
            }
        }
        return Optional.empty();
    }

    static long starting(List<String> boot, String prefix) {
        return boot.stream().filter(l -> l.startsWith(prefix)).count();
    }

    /** Appends the modules' part of the report; true when it passes. */
    static boolean report(Setup setup, StringBuilder r) {
        List<String> reasons = new ArrayList<>();
        for (Build tool : setup.kernels()) {
            Path dir = setup.dir(tool);
            List<String> args = new ArrayList<>(List.of("verify"));
            Initramfs.modules(dir).forEach(m -> args.add(dir.resolve(m.file()).toString()));
            Path text = dir.resolve("verify-modules.txt");
            int status = setup.mcountkit().run(text, text, args.toArray(String[]::new));
            Processes.write(dir.resolve("verify-modules.status"), status + "\n");
            if (status != 0) {
                reasons.add("mcountkit verify of the " + tool + " build's .ko files exits " + status);
            }
            if (!Processes.text(dir.resolve("boot.txt")).contains("kernel-check: modules end")) {
                reasons.add("the " + tool + " kernel's initramfs did not run to its end");
            }
        }
        Path mDir = setup.dir(Build.MCOUNTKIT);
        List<Initramfs.Module> modules = Initramfs.modules(mDir);
        if (modules.size() < 20) {
            reasons.add("only " + modules.size() + " modules built");
        }
        List<String> unequal = unequalTables(setup.dir(Build.C_TOOL), mDir, modules);
        unequal.forEach(name -> reasons.add(name + ".ko: its table is not the C build's (see modules.diff)"));
        Processes.write(
                setup.out().resolve("modules.diff"),
                Initramfs.lines(tableDiff(setup.dir(Build.C_TOOL), mDir, unequal, modules)));
        List<String> boot = Processes.text(mDir.resolve("boot.txt")).lines().toList();
        List<String> uses = Initramfs.MODULE_USES.stream()
                .map(u -> u.substring(0, u.indexOf(':')))
                .toList();
        List<String> table = new ArrayList<>();
        int total = 0;
        for (Initramfs.Module m : modules) {
            List<String> sections = entrySections(mDir.resolve(m.file()));
            int entries = sections.size();
            long init = sections.stream().filter(".init.text"::equals).count();
            total += entries;
            Optional<String> listed = km(boot, "listed", m.name());
            Optional<String> traced = km(boot, "traced", m.name());
            boolean loaded = boot.contains("km loaded " + m.name());
            table.add(String.format(
                    "%-22s %5s entries (%s in .init.text); loaded %s; listed %s%s",
                    m.name(),
                    entries,
                    init,
                    loaded ? "yes" : "no",
                    listed.orElse("?"),
                    traced.map(t -> "; traced " + t + " lines").orElse("")));
            if (!loaded) {
                reasons.add(m.name() + " did not load");
            }
            listedWrong(setup.machine(), m.name(), sections, listed).ifPresent(reasons::add);
            if (uses.contains(m.name()) && traced.map(Long::parseLong).orElse(0L) <= 0) {
                reasons.add(m.name() + ": no trace line while its file system was used");
            }
        }
        for (String line : boot) {
            if (line.matches("^km (insmod-failed|rmmod-failed|filter-failed|use-failed) .*")) {
                reasons.add("initramfs: " + line.substring(3));
            }
        }
        Optional<String> left = left(boot);
        if (!left.equals(Optional.of("0"))) {
            reasons.add(left.orElse("?") + " modules left loaded after rmmod of every module");
        }
        KernelReport.line(r, "");
        KernelReport.line(
                r,
                "Modules (--modules): " + (reasons.isEmpty() ? "PASS" : "FAIL") + "; " + modules.size() + " modules, "
                        + total + " table entries in all");
        for (Build tool : setup.kernels()) {
            Path dir = setup.dir(tool);
            List<String> kb = Processes.text(dir.resolve("boot.txt")).lines().toList();
            long clean = Processes.text(dir.resolve("verify-modules.txt"))
                    .lines()
                    .filter(l -> l.contains(" 0 bad"))
                    .count();
            KernelReport.line(
                    r,
                    "  mcountkit verify of the " + tool + " build's "
                            + Initramfs.modules(dir).size()
                            + " .ko files (exit " + KernelReport.status(dir.resolve("verify-modules.status")) + "): "
                            + clean
                            + " with 0 bad");
            KernelReport.line(
                    r,
                    "  " + tool + " kernel: " + starting(kb, "km loaded ") + " loaded, "
                            + starting(kb, "km insmod-failed ") + " failed to load, " + starting(kb, "km rmmod-failed ")
                            + " failed to unload, " + left(kb).orElse("") + " left");
        }
        KernelReport.line(
                r,
                "  .ko tables equal to the C build's (each entry as section+offset, in any order): "
                        + (modules.size() - unequal.size()) + " of " + modules.size()
                        + " (" + WeakModule.NAME + "'s: the C build's but its overridden weak function's entry,"
                        + " which mcountkit prune zeroed)");
        KernelReport.line(r, "  mcountkit kernel, per module:");
        table.forEach(t -> KernelReport.line(r, "    " + t));
        KernelReport.line(r, "  trace samples:");
        boot.stream()
                .filter(l -> l.startsWith("km sample "))
                .forEach(l -> KernelReport.line(r, "    " + l.substring("km sample ".length())));
        KernelReport.fail(r, "FAIL (modules): ", reasons);
        return reasons.isEmpty();
    }
}
