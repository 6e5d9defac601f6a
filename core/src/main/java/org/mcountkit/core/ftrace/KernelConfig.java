package org.mcountkit.core.ftrace;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.image.IoReason;

/**
 * The options a kernel was configured with ({@code .config}: {@code CONFIG_X=y}), where known:
 * read from a file the user names (a build's {@code .config}, a distribution's
 * {@code /boot/config-*}), or from the copy {@code CONFIG_IKCONFIG} links into vmlinux. Only a
 * few options change what ftrace lists; {@link #enabled} says "unknown" without a configuration.
 */
public record KernelConfig(Map<String, String> values, String source) {

    /** The configuration when none is known: every option unknown. */
    public static final KernelConfig UNKNOWN = new KernelConfig(Map.of(), "none");

    public KernelConfig {
        values = Map.copyOf(values);
    }

    /** {@code CONFIG_NAME=y} (or {@code =m}): true; {@code # CONFIG_NAME is not set} or absent from a known configuration: false. */
    public Optional<Boolean> enabled(String name) {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        String v = values.get("CONFIG_" + name);
        return Optional.of(v != null && (v.equals("y") || v.equals("m")));
    }

    /** True when a configuration was read (not {@link #UNKNOWN}). */
    public boolean known() {
        return !values.isEmpty();
    }

    /** True when the configuration is known and enables {@code name}. */
    public boolean on(String name) {
        return enabled(name).orElse(false);
    }

    /**
     * Reads a {@code .config} file.
     *
     * @throws InputException naming the file and the reason when it cannot be read
     */
    public static KernelConfig read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.ISO_8859_1), file.toString());
        } catch (NoSuchFileException e) {
            throw new InputException(Failure.NO_SUCH_FILE, file + ": no such file");
        } catch (IOException e) {
            throw new InputException(Failure.UNREADABLE, file + ": " + IoReason.of(e), e);
        }
    }

    static KernelConfig parse(String text, String source) {
        Map<String, String> values = new HashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (line.startsWith("CONFIG_") && eq > 0) {
                String v = line.substring(eq + 1).strip();
                if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                    v = v.substring(1, v.length() - 1);
                }
                values.put(line.substring(0, eq), v);
            }
        }
        return new KernelConfig(values, source);
    }

    /**
     * The configuration {@code CONFIG_IKCONFIG} links into the image: the gzip data between the
     * symbols {@code kernel_config_data} and {@code kernel_config_data_end}
     * ({@code kernel/configs.c}); empty when {@code gzip} is not such data.
     */
    static Optional<KernelConfig> embedded(byte[] gzip, String source) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return Optional.of(parse(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1), source));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }
}
