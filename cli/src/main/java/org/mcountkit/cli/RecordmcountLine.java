package org.mcountkit.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The kernel tool's own command line, {@code recordmcount [-w] file.o...}, read as its
 * {@code getopt(argc, argv, "w")} reads it: options may follow files, {@code -ww} is {@code -w}
 * twice, {@code --} ends the options and a lone {@code -} is a file. Kbuild runs
 * {@code $(objtree)/scripts/recordmcount $(RECORDMCOUNT_FLAGS) file.o}, so this is the line
 * {@code mcountkit recordmcount} and its build server take, and nothing else.
 */
final class RecordmcountLine {

    static final String USAGE = "usage: mcountkit recordmcount [-w] file.o...";

    private RecordmcountLine() {}

    /**
     * {@code --help} or {@code --version} when the line asks for help ({@code -h}, {@code --help})
     * or the version ({@code -V}, {@code --version}) before any {@code --}, as the man page and
     * every other command have them; the C tool's getopt knows neither and prints its usage.
     */
    static Optional<String> standardOption(List<String> args) {
        for (String arg : args) {
            Optional<String> option = switch (arg) {
                case "--" -> Optional.of("");
                case "-h", "--help" -> Optional.of("--help");
                case "-V", "--version" -> Optional.of("--version");
                default -> Optional.empty();
            };
            if (option.isPresent()) {
                return option.filter(o -> !o.isEmpty());
            }
        }
        return Optional.empty();
    }

    /** The arguments, or empty when the C tool would print its usage line instead. */
    static Optional<RecordArguments> parse(List<String> args) {
        boolean warnUntraced = false;
        boolean options = true;
        List<Path> files = new ArrayList<>();
        for (String arg : args) {
            if (options && arg.equals("--")) {
                options = false;
            } else if (options && arg.length() > 1 && arg.charAt(0) == '-') {
                if (!arg.substring(1).chars().allMatch(c -> c == 'w')) {
                    return Optional.empty();
                }
                warnUntraced = true;
            } else {
                try {
                    files.add(Path.of(arg));
                } catch (InvalidPathException e) {
                    return Optional.empty();
                }
            }
        }
        if (files.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RecordArguments(files, warnUntraced, false, false, 1, false, false, List.of()));
    }
}
