package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The rows of {@code machines.conf}: {@code [ARCH]} blocks of {@code key = value} lines, comments
 * from {@code #}. Every row must give every key, so a new row cannot forget one.
 */
public final class Machines {

    static final Set<String> KEYS = keys(
            "karch",
            "cross",
            "native-host",
            "compiler-package",
            "set",
            "qemu-package",
            "qemu",
            "image",
            "console",
            "append",
            "word",
            "stop-at-panic",
            "init",
            "busybox-arch",
            "libc-package",
            "per-link-recipe",
            "module-init");

    private final Map<String, Machine> rows;

    /**
     * The row keys: {@code common}, and per release {@code enable}, {@code disable} and
     * {@code no-clang} with its suffix ("enable" for the default release, "enable-6.12").
     */
    private static Set<String> keys(String... common) {
        Set<String> keys = new LinkedHashSet<>(Arrays.asList(common));
        for (Release release : Release.values()) {
            keys.add("enable" + release.suffix());
            keys.add("disable" + release.suffix());
            keys.add("no-clang" + release.suffix());
        }
        return Set.copyOf(keys);
    }

    private Machines(Map<String, Machine> rows) {
        this.rows = rows;
    }

    /** The rows shipped with kernel-check. */
    public static Machines bundled() {
        try (InputStream in = Machines.class.getResourceAsStream("machines.conf")) {
            if (in == null) {
                throw new IllegalStateException("machines.conf is missing from the jar");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Machines parse(String text) {
        Map<String, Map<String, String>> blocks = new LinkedHashMap<>();
        Map<String, String> current = null;
        int number = 0;
        for (String raw : text.split("\n")) {
            number++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                current = new LinkedHashMap<>();
                if (blocks.put(line.substring(1, line.length() - 1), current) != null) {
                    throw new IllegalArgumentException("machines.conf:" + number + ": " + line + " given twice");
                }
                continue;
            }
            int eq = line.indexOf('=');
            if (current == null || eq < 0) {
                throw new IllegalArgumentException("machines.conf:" + number + ": not [ARCH] or KEY = VALUE: " + line);
            }
            String key = line.substring(0, eq).strip();
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("machines.conf:" + number + ": unknown key " + key);
            }
            current.put(key, line.substring(eq + 1).strip());
        }
        Map<String, Machine> rows = new LinkedHashMap<>();
        blocks.forEach((arch, keys) -> rows.put(arch, machine(arch, keys)));
        return new Machines(rows);
    }

    private static Machine machine(String arch, Map<String, String> keys) {
        for (String key : KEYS) {
            if (!keys.containsKey(key)) {
                throw new IllegalArgumentException("machines.conf: [" + arch + "] has no " + key);
            }
        }
        return new Machine(
                arch,
                keys.get("karch"),
                keys.get("cross"),
                keys.get("native-host"),
                keys.get("compiler-package"),
                byRelease("enable", keys),
                byRelease("disable", keys),
                values(arch, keys.get("set")),
                keys.get("qemu-package"),
                words(keys.get("qemu")),
                keys.get("image"),
                keys.get("console"),
                keys.get("append"),
                Integer.parseInt(keys.get("word")),
                yes(arch, keys.get("stop-at-panic")),
                init(arch, keys),
                keys.get("busybox-arch"),
                keys.get("libc-package"),
                recipe(arch, keys.get("per-link-recipe")),
                moduleInit(arch, keys.get("module-init")),
                clangRefusals(keys));
    }

    /** The releases whose no-clang key gives a reason, with it. */
    private static Map<Release, String> clangRefusals(Map<String, String> keys) {
        Map<Release, String> refusals = new EnumMap<>(Release.class);
        for (Release release : Release.values()) {
            String reason = keys.get("no-clang" + release.suffix());
            if (!reason.isEmpty()) {
                refusals.put(release, reason);
            }
        }
        return refusals;
    }

    /**
     * Each release's options under {@code key}: the default release's key alone, and for another
     * release that key's words followed by its own key's ("enable", then "enable-6.12").
     */
    private static Map<Release, List<String>> byRelease(String key, Map<String, String> keys) {
        List<String> common = words(keys.get(key + Release.DEFAULT.suffix()));
        Map<Release, List<String>> lists = new EnumMap<>(Release.class);
        for (Release release : Release.values()) {
            List<String> own = release == Release.DEFAULT ? List.of() : words(keys.get(key + release.suffix()));
            lists.put(release, Stream.concat(common.stream(), own.stream()).toList());
        }
        return lists;
    }

    /** {@code NAME=VALUE} words: options given a value. */
    private static Map<String, String> values(String arch, String words) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String word : words(words)) {
            int eq = word.indexOf('=');
            if (eq <= 0 || eq == word.length() - 1) {
                throw new IllegalArgumentException("machines.conf: [" + arch + "] set takes NAME=VALUE, not " + word);
            }
            values.put(word.substring(0, eq), word.substring(eq + 1));
        }
        return values;
    }

    private static String recipe(String arch, String value) {
        if (!value.equals("per-link") && !value.equals("post-link")) {
            throw new IllegalArgumentException(
                    "machines.conf: [" + arch + "] per-link-recipe is per-link or post-link, not " + value);
        }
        return value;
    }

    private static boolean moduleInit(String arch, String value) {
        return switch (value) {
            case "freed" -> true;
            case "kept" -> false;
            default ->
                throw new IllegalArgumentException(
                        "machines.conf: [" + arch + "] module-init is freed or kept, not " + value);
        };
    }

    /** The row's init, which must have what it is made from: busybox its busybox-arch, kcinit its libc-package. */
    private static Machine.Init init(String arch, Map<String, String> keys) {
        String value = keys.get("init");
        String needs = switch (value) {
            case "busybox" -> "busybox-arch";
            case "kcinit" -> "libc-package";
            default ->
                throw new IllegalArgumentException(
                        "machines.conf: [" + arch + "] init is busybox or kcinit, not " + value);
        };
        if (keys.get(needs).isEmpty()) {
            throw new IllegalArgumentException("machines.conf: [" + arch + "] init = " + value + " needs a " + needs);
        }
        return Machine.Init.valueOf(value.toUpperCase(Locale.ROOT));
    }

    private static boolean yes(String arch, String value) {
        if (!value.equals("yes") && !value.equals("no")) {
            throw new IllegalArgumentException(
                    "machines.conf: [" + arch + "] stop-at-panic is yes or no, not " + value);
        }
        return value.equals("yes");
    }

    static List<String> words(String value) {
        return value.isEmpty() ? List.of() : Arrays.asList(value.split("\\s+"));
    }

    public Optional<Machine> get(String arch) {
        return Optional.ofNullable(rows.get(arch));
    }

    /** The ARCH names in file order, as the usage line lists them. */
    public List<String> names() {
        return List.copyOf(rows.keySet());
    }
}
