package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * --config's modules: a full configuration builds hundreds, mostly drivers for hardware QEMU does
 * not have, so the initramfs loads a fixed handful (and what they depend on), checks each one's
 * functions in available_filter_functions, traces isofs while it mounts an ISO image, and removes
 * them; {@code mcountkit verify} runs on every .ko of the build.
 */
final class FullSizeModules {

    /** A module of the handful: the option set to m for it, and its name as .modinfo gives it. */
    record Handful(String option, String name) {}

    /**
     * Set to m on top of the configuration. multi_v7_defconfig builds the crypto ones as m already;
     * x86_64's defconfig has most of them built in, selected by options that are built in
     * themselves, so those stay built in and are not loaded. It builds its file systems in (ext4,
     * vfat) or not at all, so ISO9660_FS is added as the module that can be used, and traced, from
     * the initramfs: the one that must end up a module ({@link #TRACED}).
     */
    static final List<Handful> HANDFUL = List.of(
            new Handful("ISO9660_FS", "isofs"),
            new Handful("CRYPTO_MD5", "md5"),
            new Handful("CRYPTO_SHA1", "sha1_generic"),
            new Handful("CRYPTO_SHA256", "sha256_generic"),
            new Handful("CRYPTO_SHA512", "sha512_generic"),
            new Handful("CRYPTO_HMAC", "hmac"),
            new Handful("CRYPTO_CBC", "cbc"),
            new Handful("CRYPTO_ECB", "ecb"),
            new Handful("CRYPTO_AES", "aes_generic"));

    static final Handful TRACED = HANDFUL.get(0);

    /**
     * Set y: the crypto modules' menu (multi_v7_defconfig has it y; tinyconfig has it off, and
     * nothing the modules need selects it). Not m: that would turn a y crypto core into a module.
     */
    static final List<String> BUILT_IN = List.of("CRYPTO");

    /** The modules traced while used (the init script's use_ functions; Initramfs.MODULE_USES' form). */
    static final List<String> USES = List.of("isofs:use_iso");

    private FullSizeModules() {}

    /** The options of the handful, each set to m. */
    static List<String> options() {
        return HANDFUL.stream().map(Handful::option).toList();
    }

    /** The handful's modules the configuration in {@code dir} left modules (a built-in one is not loaded). */
    static List<String> names(Path dir) {
        return withValue(dir, "m");
    }

    /** The handful's modules the configuration in {@code dir} builds in instead. */
    static List<String> builtIn(Path dir) {
        return withValue(dir, "y");
    }

    private static List<String> withValue(Path dir, String value) {
        List<String> config = Processes.text(dir.resolve(".config")).lines().toList();
        return HANDFUL.stream()
                .filter(h -> config.contains("CONFIG_" + h.option() + "=" + value))
                .map(Handful::name)
                .toList();
    }

    /** The handful among {@code all} that {@code names} gives, each with the modules it depends on, in the order of {@code all}. */
    static List<Initramfs.Module> chosen(List<Initramfs.Module> all, List<String> names) {
        Map<String, Initramfs.Module> byName =
                all.stream().collect(Collectors.toMap(Initramfs.Module::name, Function.identity(), (a, b) -> a));
        Set<String> taken = new LinkedHashSet<>();
        List<String> todo = new ArrayList<>(names);
        while (!todo.isEmpty()) {
            String name = todo.remove(todo.size() - 1);
            Initramfs.Module m = byName.get(name);
            if (m != null && taken.add(name)) {
                todo.addAll(m.depends());
            }
        }
        return all.stream().filter(m -> taken.contains(m.name())).toList();
    }

    /** The initramfs with the handful; the images and init script of --modules, only isofs traced. */
    static Path initramfs(Setup setup, List<Initramfs.Module> modules) {
        return initramfs(setup, Build.MCOUNTKIT, modules);
    }

    /** The same for the kernel {@code kernel} (--debian-kernel's is Debian's). */
    static Path initramfs(Setup setup, Build kernel, List<Initramfs.Module> modules) {
        Initramfs initramfs = new Initramfs(setup);
        initramfs.moduleImages();
        Processes.write(setup.out().resolve("modules.uses"), Initramfs.lines(USES));
        return initramfs.forModules(kernel, modules);
    }

    /** Appends the modules' part of the report; the reasons it fails, none when it passes. */
    static List<String> report(
            Setup setup, List<Initramfs.Module> all, List<Initramfs.Module> loaded, StringBuilder r) {
        Path dir = setup.dir(Build.MCOUNTKIT);
        List<String> reasons = new ArrayList<>();
        List<String> names = loaded.stream().map(Initramfs.Module::name).toList();
        List<String> handful = names(dir);
        handful.stream().filter(n -> !names.contains(n)).forEach(n -> reasons.add(n + ".ko was not built"));
        List<String> args = new ArrayList<>(List.of("verify"));
        all.forEach(m -> args.add(dir.resolve(m.file()).toString()));
        Path verify = dir.resolve("verify-modules.txt");
        int status = all.isEmpty() ? 0 : setup.mcountkit().run(verify, verify, args.toArray(String[]::new));
        if (status != 0) {
            reasons.add("mcountkit verify of the build's .ko files exits " + status + " (see " + verify + ")");
        }
        List<String> boot = Processes.text(dir.resolve("boot.txt")).lines().toList();
        List<String> traced =
                USES.stream().map(u -> u.substring(0, u.indexOf(':'))).toList();
        List<String> rows = new ArrayList<>();
        for (Initramfs.Module m : loaded) {
            List<String> sections = ModulesCheck.entrySections(dir.resolve(m.file()));
            long init = sections.stream().filter(".init.text"::equals).count();
            Optional<String> listed = ModulesCheck.km(boot, "listed", m.name());
            Optional<String> lines = ModulesCheck.km(boot, "traced", m.name());
            rows.add(String.format(
                    "%-18s %5d entries (%d in .init.text); listed %s%s",
                    m.name(),
                    sections.size(),
                    init,
                    listed.orElse("?"),
                    lines.map(t -> "; traced " + t + " lines").orElse("")));
            if (!boot.contains("km loaded " + m.name())) {
                reasons.add(m.name() + " did not load");
            }
            ModulesCheck.listedWrong(setup.machine(), m.name(), sections, listed)
                    .ifPresent(reasons::add);
            if (traced.contains(m.name()) && lines.map(Long::parseLong).orElse(0L) <= 0) {
                reasons.add(m.name() + ": no trace line while it was used");
            }
        }
        boot.stream()
                .filter(l -> l.matches("^km (insmod-failed|rmmod-failed|filter-failed|use-failed) .*"))
                .forEach(l -> reasons.add("initramfs: " + l.substring(3)));
        Optional<String> left = ModulesCheck.left(boot);
        if (!left.equals(Optional.of("0"))) {
            reasons.add(left.orElse("?") + " modules left loaded after rmmod of every module");
        }
        KernelReport.line(r, "");
        KernelReport.line(
                r,
                "Modules: " + (reasons.isEmpty() ? "PASS" : "FAIL") + "; " + all.size()
                        + " built; mcountkit verify of all"
                        + " (exit " + status + "): "
                        + Processes.text(verify)
                                .lines()
                                .filter(l -> l.contains(" 0 bad"))
                                .count()
                        + " with 0 bad");
        KernelReport.line(
                r,
                "  loaded " + loaded.size() + " (" + String.join(" ", handful) + " and what they depend on"
                        + (builtIn(dir).isEmpty() ? "" : "; built in: " + String.join(" ", builtIn(dir))) + "): "
                        + ModulesCheck.starting(boot, "km loaded ") + " loaded, "
                        + ModulesCheck.starting(boot, "km rmmod-failed ") + " failed to unload, " + left.orElse("?")
                        + " left");
        rows.forEach(row -> KernelReport.line(r, "    " + row));
        boot.stream()
                .filter(l -> l.startsWith("km sample "))
                .forEach(l -> KernelReport.line(r, "    trace: " + l.substring("km sample ".length())));
        KernelReport.fail(r, "FAIL (modules): ", reasons);
        return reasons;
    }
}
