package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The one reader of {@code record}'s command line. picocli builds the model of every command by
 * reflection before it reads a word: even from the class-data archive that costs a one-object
 * {@code record} 0.07 to 0.17 s of CPU on OpenJDK 17 (docs/measurements.md), which Kbuild pays per
 * object and the per-link recipe per link. So {@code record} is read here, after
 * {@link ArgumentFiles}, as picocli reads a line with its defaults ({@code -wq}, {@code -j8},
 * {@code --jobs=8}, {@code --strict=false}, {@code --}; an option given twice, a bad or missing
 * value refused at once; unknown options read past, so that {@code --help} later still wins),
 * with the options {@link RecordCommand} shows in the help; picocli only draws that help. Where
 * picocli would run a line that is surely a mistake, this reader refuses it: an empty FILE or
 * DIR, a word like {@code -1} (to picocli a FILE), {@code -w=} (to picocli: no {@code -w}).
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
            for (Option option : values()) {
                if (option.names.contains(name)) {
                    return Optional.of(option);
                }
            }
            return Optional.empty();
        }
    }

    /** What an option takes after its name. */
    enum Value {
        NONE,
        ONE,
        REPEATABLE
    }

    private final List<String> words;
    private final Set<Option> seen = EnumSet.noneOf(Option.class);
    private final Set<Option> setFlags = EnumSet.noneOf(Option.class);
    private final List<Path> files = new ArrayList<>();
    private final List<Path> pluginPath = new ArrayList<>();
    private final List<String> unknown = new ArrayList<>();
    private int jobs = JobCount.DEFAULT;
    private int next;

    private RecordLine(List<String> words) {
        this.words = words;
    }

    /** Reads the words after {@code record}, their argument files expanded. */
    static Reading read(List<String> words) {
        return new RecordLine(words).read();
    }

    /**
     * Each step below returns the refusal that ends the reading, or nothing to read on: only a
     * wrong value or a repeated option ends it at once, as it does picocli's.
     */
    private Reading read() {
        boolean options = true;
        while (next < words.size()) {
            String word = words.get(next++);
            Optional<Refused> refused;
            if (options && word.equals("--")) {
                options = false;
                refused = Optional.empty();
            } else if (options && word.startsWith("--")) {
                refused = longOption(word);
            } else if (options && word.length() > 1 && word.charAt(0) == '-') {
                refused = shortOptions(word);
            } else {
                refused = file(word);
            }
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        if (seen.contains(Option.HELP)) {
            return new Help();
        }
        if (seen.contains(Option.VERSION)) {
            return new Version();
        }
        if (!unknown.isEmpty()) {
            return new Refused("Unknown option" + (unknown.size() == 1 ? "" : "s") + ": " + String.join(", ", unknown));
        }
        if (files.isEmpty()) {
            return new Refused("record needs at least one FILE");
        }
        return new Run(new RecordArguments(
                files,
                setFlags.contains(Option.WARN_UNTRACED),
                setFlags.contains(Option.STRICT),
                setFlags.contains(Option.FSYNC),
                jobs,
                setFlags.contains(Option.VERBOSE),
                setFlags.contains(Option.QUIET),
                pluginPath));
    }

    /** {@code --name} or {@code --name=value}. */
    private Optional<Refused> longOption(String word) {
        int equals = word.indexOf('=');
        String name = equals < 0 ? word : word.substring(0, equals);
        Optional<Option> option = Option.named(name);
        if (option.isEmpty()) {
            unknown.add("'" + word + "'");
            return Optional.empty();
        }
        return take(option.get(), name, equals < 0 ? Optional.empty() : Optional.of(word.substring(equals + 1)));
    }

    /** {@code -w}, a cluster {@code -wq}, or one ending in a value: {@code -wj8}, {@code -j=8}, {@code -w=false}. */
    private Optional<Refused> shortOptions(String word) {
        for (int i = 1; i < word.length(); i++) {
            String name = "-" + word.charAt(i);
            Optional<Option> option = Option.named(name);
            if (option.isEmpty()) {
                // picocli's words: the rest of the cluster, and the cluster it came in.
                unknown.add(
                        i == 1
                                ? "'" + word + "'"
                                : "'-" + word.substring(i) + "' (while processing option: '" + word + "')");
                return Optional.empty();
            }
            String rest = word.substring(i + 1);
            if (option.get().value != Value.NONE || rest.startsWith("=")) {
                String attached = rest.startsWith("=") ? rest.substring(1) : rest;
                return take(option.get(), name, rest.isEmpty() ? Optional.empty() : Optional.of(attached));
            }
            Optional<Refused> refused = take(option.get(), name, Optional.empty());
            if (refused.isPresent()) {
                return refused;
            }
        }
        return Optional.empty();
    }

    /** Takes an option, with its value attached to its name or else the next word. */
    private Optional<Refused> take(Option option, String name, Optional<String> attached) {
        if (option.value != Value.REPEATABLE && !seen.add(option)) {
            return refused("option '" + name + "' given twice");
        }
        if (option.value == Value.NONE) {
            return flag(option, name, attached);
        }
        if (attached.isEmpty() && next == words.size()) {
            return refused("option '" + name + "' needs a value");
        }
        if (attached.isEmpty() && (words.get(next).equals("--") || namesAnOption(words.get(next)))) {
            return refused("option '" + name + "' needs a value, not the option '" + words.get(next) + "'");
        }
        String value = attached.isPresent() ? attached.get() : words.get(next++);
        if (option == Option.JOBS) {
            return jobs(value);
        }
        if (value.isEmpty()) {
            return refused("option '" + name + "' needs a folder, not an empty name");
        }
        pluginPath.add(Path.of(value));
        return Optional.empty();
    }

    /** A flag, set by its name alone or by {@code --name=true}, cleared by {@code --name=false}. */
    private Optional<Refused> flag(Option option, String name, Optional<String> attached) {
        String value = attached.orElse("true");
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            return refused("option '" + name + "' takes true or false, not '" + value + "'");
        }
        if (Boolean.parseBoolean(value)) {
            setFlags.add(option);
        }
        return Optional.empty();
    }

    /** An option's name, with or without a value, or a cluster that opens with one: {@code -wq}. */
    private static boolean namesAnOption(String word) {
        return Option.named(word.split("=", 2)[0]).isPresent()
                || (word.length() > 2
                        && word.charAt(0) == '-'
                        && word.charAt(1) != '-'
                        && Option.named(word.substring(0, 2)).isPresent());
    }

    private Optional<Refused> jobs(String value) {
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

    private Optional<Refused> file(String word) {
        if (word.isEmpty()) {
            return refused("an empty FILE name");
        }
        files.add(Path.of(word));
        return Optional.empty();
    }

    private static Optional<Refused> refused(String reason) {
        return Optional.of(new Refused(reason));
    }
}
