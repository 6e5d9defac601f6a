package org.mcountkit.cli;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the command line a kernel build uses, {@code record [-w] [-q] [--strict] [--fsync]
 * [-j N] [--plugin-path DIR]... FILE... | @ARGFILE}, without picocli. picocli builds the model of
 * every command by reflection before it reads a word: even from the class-data archive that
 * doubles the CPU a one-object {@code record} takes (0.29 s against 0.15 s on OpenJDK 17,
 * docs/measurements.md), and Kbuild pays it per object. Anything else (help, version, {@code -v},
 * other commands or options, argument files with quotes or comments) is left to picocli, which
 * reads the same words the same way (a test holds the two to that).
 */
final class PlainRecordLine {

    private static final int MAX_JOBS_DIGITS = 6;

    /** The system property that makes picocli read an argument file one argument per line. */
    private static final String SIMPLIFIED_AT_FILES = "picocli.useSimplifiedAtFiles";

    /** The options read here: each spelling mapped to the one name the parser goes by. */
    private static final Map<String, String> OPTIONS = Map.of(
            "-w",
            "-w",
            "-q",
            "-q",
            "--quiet",
            "-q",
            "--strict",
            "--strict",
            "--fsync",
            "--fsync",
            "-j",
            "-j",
            "--jobs",
            "-j",
            "--plugin-path",
            "--plugin-path");

    private PlainRecordLine() {}

    /** The arguments of a plain {@code record} line, or empty when picocli must read it. */
    static Optional<RecordArguments> parse(String... args) {
        if (args.length < 2 || !args[0].equals("record")) {
            return Optional.empty();
        }
        List<String> words = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("@")) {
                if (!expand(args[i].substring(1), words)) {
                    return Optional.empty();
                }
            } else {
                words.add(args[i]);
            }
        }
        boolean warnUntraced = false;
        boolean quiet = false;
        boolean strict = false;
        boolean fsync = false;
        int jobs = JobCount.DEFAULT;
        Set<String> given = new HashSet<>();
        List<Path> files = new ArrayList<>();
        List<Path> pluginPath = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            String option = OPTIONS.getOrDefault(word, "");
            if (!option.isEmpty() && !option.equals("--plugin-path") && !given.add(option)) {
                return Optional.empty(); // picocli refuses an option given twice
            }
            switch (option) {
                case "-w" -> warnUntraced = true;
                case "-q" -> quiet = true;
                case "--strict" -> strict = true;
                case "--fsync" -> fsync = true;
                case "--plugin-path" -> {
                    // Repeatable; a value picocli might read differently (empty, an option) is left to it.
                    if (++i == words.size()
                            || words.get(i).isEmpty()
                            || words.get(i).startsWith("-")) {
                        return Optional.empty();
                    }
                    try {
                        pluginPath.add(Path.of(words.get(i)));
                    } catch (InvalidPathException e) {
                        return Optional.empty();
                    }
                }
                case "-j" -> {
                    // A count out of range is left to picocli, which refuses it.
                    if (++i == words.size()
                            || !isCount(words.get(i))
                            || !JobCount.valid(Integer.parseInt(words.get(i)))) {
                        return Optional.empty();
                    }
                    jobs = Integer.parseInt(words.get(i));
                }
                default -> {
                    if (word.isEmpty() || word.startsWith("-") || word.startsWith("@")) {
                        return Optional.empty();
                    }
                    try {
                        files.add(Path.of(word));
                    } catch (InvalidPathException e) {
                        return Optional.empty();
                    }
                }
            }
        }
        if (files.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RecordArguments(files, warnUntraced, strict, fsync, jobs, false, quiet, pluginPath));
    }

    /**
     * Adds the words of an argument file, split where picocli splits them (at every character
     * up to the space) and decoded as picocli decodes them (the platform charset); false when the
     * file is not a regular file (a pipe read here would be empty for picocli), cannot be read,
     * or holds what picocli gives a meaning of its own (quotes, escapes, comments, nested
     * argument files), or when picocli is told to read one argument per line.
     */
    private static boolean expand(String name, List<String> words) {
        if (System.getProperty(SIMPLIFIED_AT_FILES) != null) {
            return false;
        }
        String text;
        try {
            Path file = Path.of(name);
            if (!Files.isRegularFile(file)) {
                return false;
            }
            text = Files.readString(file, Charset.defaultCharset());
        } catch (IOException | InvalidPathException | SecurityException e) {
            return false;
        }
        int start = -1;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            if (c == '"' || c == '\'' || c == '\\' || c == '#' || c == '@') {
                return false;
            }
            if (c <= ' ' && start >= 0) {
                words.add(text.substring(start, i));
                start = -1;
            } else if (c > ' ' && start < 0) {
                start = i;
            }
        }
        return true;
    }

    /**
     * A count written the one way both parsers surely read alike: decimal digits without a
     * leading zero or sign; any other spelling is left to picocli.
     */
    private static boolean isCount(String word) {
        if (word.isEmpty() || word.length() > MAX_JOBS_DIGITS || word.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (word.charAt(i) < '0' || word.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
