package org.mcountkit.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Adds the sections every man page has beside picocli's (which writes NAME to COMMANDS, EXIT
 * STATUS from each command's exit code list and EXAMPLES from its footer): ENVIRONMENT, from the
 * same list {@code --help} prints, FILES and SEE ALSO. Run by the build (module dist) on the
 * AsciiDoc pages picocli generated, before they are made into man pages; never at run time.
 */
public final class ManPageSections {

    /** Where picocli's generated page ends, and where its footer (the examples) starts. */
    private static final String FOOTER = "// tag::picocli-generated-man-section-footer[]";

    private static final String END = "// end::picocli-generated-full-manpage[]";

    /** picocli's own help command takes no annotations of ours: its two sections are given here. */
    private static final String HELP_PAGE = "mcountkit-help";

    private static final String HELP_EXIT_STATUS = """
            == Exit status

            *0*::
              The help was shown.

            *2*::
              No such command.

            """;

    private static final String HELP_EXAMPLES = """
            == Examples

            [%hardbreaks]
              mcountkit help list

            """;

    private ManPageSections() {}

    /** Adds the sections to every {@code .adoc} page in the folder {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        Path folder = Path.of(args[0]);
        List<String> pages;
        try (Stream<Path> files = Files.list(folder)) {
            pages = files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(".adoc"))
                    .map(f -> f.substring(0, f.length() - ".adoc".length()))
                    .sorted()
                    .toList();
        }
        for (String page : pages) {
            Path file = folder.resolve(page + ".adoc");
            Files.writeString(file, withSections(page, pages, Files.readString(file, StandardCharsets.UTF_8)));
        }
    }

    static String withSections(String page, List<String> pages, String text) {
        if (!text.contains(FOOTER) || !text.contains(END)) {
            throw new IllegalArgumentException(page + ".adoc is not a page picocli generated: no " + FOOTER);
        }
        boolean help = page.equals(HELP_PAGE);
        String beforeFooter = (help ? HELP_EXIT_STATUS : "") + environment() + files();
        String afterFooter = (help ? HELP_EXAMPLES : "") + seeAlso(page, pages);
        return text.replace(FOOTER, beforeFooter + FOOTER).replace(END, afterFooter + END);
    }

    private static String environment() {
        StringBuilder text = new StringBuilder(
                "== Environment\n\nRead by the *mcountkit* and *mcountkit-recordmcount* scripts.\n\n");
        for (EnvironmentSection.Variable variable : EnvironmentSection.VARIABLES) {
            text.append('*')
                    .append(variable.name())
                    .append("*::\n  ")
                    .append(variable.meaning())
                    .append("\n\n");
        }
        return text.toString();
    }

    private static String files() {
        return """
                == Files

                _$XDG_CACHE_HOME/mcountkit/_, else _~/.cache/mcountkit/_::
                  The start-up archive (class-data archive, or AOT cache on JDK 25), made on first use after the command has run; safe to delete.

                _$XDG_RUNTIME_DIR/mcountkit/_, else _/tmp/mcountkit-UID/_::
                  The build server's address and tokens (*mcountkit-recordmcount*), in a folder only the user can reach.

                _/usr/share/mcountkit/mcountkit.jar_ (_lib/mcountkit.jar_ in the release archive)::
                  The program the scripts run.

                """;
    }

    private static String seeAlso(String page, List<String> pages) {
        List<String> references = new ArrayList<>();
        for (String other : pages) {
            if (!other.equals(page)) {
                references.add("*" + other + "*(1)");
            }
        }
        references.addAll(List.of("*readelf*(1)", "*objdump*(1)", "*nm*(1)", "*ld*(1)"));
        return "== See also\n\n" + String.join(", ", references)
                + "; the kernel's _Documentation/trace/ftrace.rst_; README.md of mcountkit.\n\n";
    }
}
