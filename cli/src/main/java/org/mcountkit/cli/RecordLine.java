package org.mcountkit.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one reader of {@code record}'s command line. picocli builds the model of every command by
 * reflection before it reads a word: even from the class-data archive that costs a one-object
 * {@code record} 0.07 to 0.17 s of CPU on OpenJDK 17 (docs/measurements.md), which Kbuild pays per
 * object and the per-link recipe per link. So {@code record} is read here, with picocli's syntax
 * ({@code -wq}, {@code -j8}, {@code --jobs=8}, {@code --}, {@code @FILE}) and the options
 * {@link RecordCommand} shows in the help, and picocli only draws that help.
 */
final class RecordLine {

    /** What the line asks for. */
    sealed interface Reading permits Run, Help, Version, Refused {}

    /** Record these files. */
    record Run(RecordArguments arguments) implements Reading {}

    /** {@code -h}/{@code --help}: record's help. */
    record Help() implements Reading {}

    /** {@code -V}/{@code --version}. */
    record Version() implements Reading {}

    /** A wrong line, and what is wrong with it. */
    record Refused(String reason) implements Reading {}

    /** The options, each under every name it has. */
    enum Option {
        WARN_UNTRACED(Value.NONE, "-w"),
        QUIET(Value.NONE, "-q", "--quiet"),
        VERBOSE(Value.NONE, "-v", "--verbose"),
        STRICT(Value.NONE, "--strict"),
        FSYNC(Value.NONE, "--fsync"),
        JOBS(Value.ONE, "-j", "--jobs"),
        PLUGIN_PATH(Value.REPEATABLE, "--plugin-path"),
        HELP(Value.NONE, "-h", "--help"),
        VERSION(Value.NONE, "-V", "--version");

        final Value value;
        final List<String> names;

        Option(Value value, String... names) {
            this.value = value;
            this.names = List.of(names);
        }

        /** The option of a name, {@code -w} or {@code --jobs}. */
        static Optional<Option> named(String name) {
            return Arrays.stream(values()).filter(o -> o.names.contains(name)).findFirst();
        }

        String longestName() {
            return names.get(names.size() - 1);
        }
    }

    /** What an option takes after its name. */
    enum Value {
        NONE,
        ONE,
        REPEATABLE
    }

    private final List<String> words;
    private final Set<Option> given = EnumSet.noneOf(Option.class);
    private final Set<Option> on = EnumSet.noneOf(Option.class);
    private final List<Path> files = new ArrayList<>();
    private final List<Path> pluginPath = new ArrayList<>();
    private int jobs = JobCount.DEFAULT;

    /**
     * The first unknown option. The line is read on past it, as picocli reads it, so a help or
     * version asked for later still wins.
     */
    private Optional<String> unknown = Optional.empty();

    private int next;

    private RecordLine(List<String> words) {
        this.words = words;
    }

    /** Reads the words after {@code record}. */
    static Reading read(List<String> args) {
        List<String> words;
        try {
            words = ArgumentFiles.expand(args);
        } catch (ArgumentFiles.UnreadableArgumentFile e) {
            return new Refused(e.getMessage());
        }
        return new RecordLine(words).read();
    }

    private Reading read() {
        boolean options = true;
        while (next < words.size()) {
            String word = words.get(next++);
            Optional<Reading> stop;
            if (options && word.equals("--")) {
                options = false;
                stop = Optional.empty();
            } else if (options && word.startsWith("--")) {
                stop = longOption(word);
            } else if (options && word.length() > 1 && word.charAt(0) == '-') {
                stop = shortOptions(word);
            } else {
                stop = file(word);
            }
            if (stop.isPresent()) {
                return stop.get();
            }
        }
        if (unknown.isPresent()) {
            return new Refused(unknown.get());
        }
        if (files.isEmpty()) {
            return new Refused("record needs at least one FILE");
        }
        return new Run(new RecordArguments(
                files,
                on.contains(Option.WARN_UNTRACED),
                on.contains(Option.STRICT),
                on.contains(Option.FSYNC),
                jobs,
                on.contains(Option.VERBOSE),
                on.contains(Option.QUIET),
                pluginPath));
    }

    /** {@code --name} or {@code --name=value}. */
    private Optional<Reading> longOption(String word) {
        int equals = word.indexOf('=');
        String name = equals < 0 ? word : word.substring(0, equals);
        Optional<Option> option = Option.named(name);
        if (option.isEmpty()) {
            return unknown("Unknown option: '" + word + "'");
        }
        return take(option.get(), name, equals < 0 ? Optional.empty() : Optional.of(word.substring(equals + 1)));
    }

    /** {@code -w}, a cluster {@code -wq}, or one ending in a value: {@code -wj8}, {@code -j=8}, {@code -w=false}. */
    private Optional<Reading> shortOptions(String word) {
        for (int i = 1; i < word.length(); i++) {
            String name = "-" + word.charAt(i);
            Optional<Option> option = Option.named(name);
            if (option.isEmpty()) {
                return unknown(
                        i == 1
                                ? "Unknown option: '" + word + "'"
                                : "Unknown option: '" + name + "' (while processing option: '" + word + "')");
            }
            String rest = word.substring(i + 1);
            if (option.get().value != Value.NONE || rest.startsWith("=")) {
                String attached = rest.startsWith("=") ? rest.substring(1) : rest;
                return take(option.get(), name, rest.isEmpty() ? Optional.empty() : Optional.of(attached));
            }
            Optional<Reading> stop = take(option.get(), name, Optional.empty());
            if (stop.isPresent()) {
                return stop;
            }
        }
        return Optional.empty();
    }

    /** Takes an option, with its value attached to its name or else the next word. */
    private Optional<Reading> take(Option option, String name, Optional<String> attached) {
        if (option.value != Value.REPEATABLE && !given.add(option)) {
            return refused("option '" + option.longestName() + "' given twice");
        }
        if (option.value == Value.NONE) {
            return flag(option, name, attached);
        }
        Optional<String> value = attached.isPresent() ? attached : nextWordAsValue();
        if (value.isEmpty()) {
            return refused("option '" + name + "' needs a value");
        }
        return option == Option.JOBS ? jobs(value.get()) : pluginDirectory(value.get());
    }

    /** A flag, set by its name alone or by {@code --name=true}, cleared by {@code --name=false}. */
    private Optional<Reading> flag(Option option, String name, Optional<String> attached) {
        String value = attached.orElse("true");
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            return refused("option '" + name + "' takes true or false, not '" + value + "'");
        }
        // Named at all, the help and the version are asked for, as picocli has it.
        if (option == Option.HELP) {
            return Optional.of(new Help());
        }
        if (option == Option.VERSION) {
            return Optional.of(new Version());
        }
        if (Boolean.parseBoolean(value)) {
            on.add(option);
        }
        return Optional.empty();
    }

    /** The next word, unless there is none or it is an option of its own. */
    private Optional<String> nextWordAsValue() {
        if (next == words.size()) {
            return Optional.empty();
        }
        String word = words.get(next);
        if (word.equals("--") || namesAnOption(word)) {
            return Optional.empty();
        }
        next++;
        return Optional.of(word);
    }

    /** An option's name, with or without a value, or a cluster that opens with one: {@code -wq}. */
    private static boolean namesAnOption(String word) {
        return Option.named(word.split("=", 2)[0]).isPresent()
                || (word.length() > 2
                        && word.charAt(0) == '-'
                        && word.charAt(1) != '-'
                        && Option.named(word.substring(0, 2)).isPresent());
    }

    private Optional<Reading> jobs(String value) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return refused("-j takes a number of files processed in parallel, not '" + value + "'");
        }
        if (!JobCount.valid(n)) {
            return refused(JobCount.outOfRange(n));
        }
        jobs = n;
        return Optional.empty();
    }

    private Optional<Reading> pluginDirectory(String value) {
        try {
            pluginPath.add(Path.of(value));
        } catch (InvalidPathException e) {
            return refused("--plugin-path " + value + ": not a path: " + e.getReason());
        }
        return Optional.empty();
    }

    private Optional<Reading> file(String word) {
        try {
            files.add(Path.of(word));
        } catch (InvalidPathException e) {
            return refused(word + ": not a path: " + e.getReason());
        }
        return Optional.empty();
    }

    private Optional<Reading> unknown(String reason) {
        if (unknown.isEmpty()) {
            unknown = Optional.of(reason);
        }
        return Optional.empty();
    }

    private static Optional<Reading> refused(String reason) {
        return Optional.of(new Refused(reason));
    }
}
