package org.mcountkit.cli;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StreamTokenizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Expands the {@code @FILE} words of every command line, once, before either reader sees it
 * ({@link RecordLine} or picocli, told not to expand again), by picocli's rules: words split at
 * whitespace (every character up to the space), {@code "..."} and {@code '...'} quote (with Java's
 * escapes inside), {@code #} starts a comment to the end of the line, files nest (one already
 * expanded under the same word is skipped), {@code @@x} is the word {@code @x}, and a file that
 * cannot be read stays a word, {@code @FILE}, for the command to refuse as a file it cannot read.
 * With the system property {@code picocli.useSimplifiedAtFiles} (empty or true) each line is one
 * word instead, as picocli has it.
 */
final class ArgumentFiles {

    private static final String SIMPLIFIED = "picocli.useSimplifiedAtFiles";

    private ArgumentFiles() {}

    /** The words with every {@code @FILE} expanded. */
    static List<String> expand(List<String> words) throws UnreadableArgumentFile {
        List<String> expanded = new ArrayList<>();
        for (String word : words) {
            addOrExpand(word, expanded, new HashSet<>());
        }
        return expanded;
    }

    private static void addOrExpand(String word, List<String> out, Set<String> visited) throws UnreadableArgumentFile {
        if (word.length() < 2 || word.charAt(0) != '@') {
            out.add(word);
        } else if (word.charAt(1) == '@') {
            out.add(word.substring(1));
        } else {
            expandFile(word.substring(1), out, visited);
        }
    }

    private static void expandFile(String name, List<String> out, Set<String> visited) throws UnreadableArgumentFile {
        File file = new File(name);
        if (!file.canRead()) {
            out.add("@" + name);
            return;
        }
        if (!visited.add(file.getAbsolutePath())) {
            return;
        }
        if (file.isDirectory()) {
            throw new UnreadableArgumentFile("cannot read argument file @" + name + ": it is a directory");
        }
        // The platform's charset, as picocli reads argument files.
        try (@SuppressWarnings("DefaultCharset")
                BufferedReader reader = new BufferedReader(new FileReader(file))) {
            for (String word : simplified() ? lines(reader) : words(reader)) {
                addOrExpand(word, out, visited);
            }
        } catch (IOException e) {
            throw new UnreadableArgumentFile("cannot read argument file @" + name + ": " + reason(e));
        }
    }

    private static boolean simplified() {
        String value = System.getProperty(SIMPLIFIED);
        return value != null && (value.isEmpty() || Boolean.parseBoolean(value));
    }

    /** One word a line, save empty lines and comment lines. */
    private static List<String> lines(BufferedReader reader) throws IOException {
        List<String> words = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (!line.isEmpty() && !line.trim().startsWith("#")) {
                words.add(line);
            }
        }
        return words;
    }

    private static List<String> words(Reader reader) throws IOException {
        StreamTokenizer tokens = new StreamTokenizer(reader);
        tokens.resetSyntax();
        tokens.wordChars(' ', 255);
        tokens.whitespaceChars(0, ' ');
        tokens.quoteChar('"');
        tokens.quoteChar('\'');
        tokens.commentChar('#');
        List<String> words = new ArrayList<>();
        while (tokens.nextToken() != StreamTokenizer.TT_EOF) {
            words.add(tokens.sval);
        }
        return words;
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** An argument file that could be opened but not read to its end (a folder, an I/O error). */
    static final class UnreadableArgumentFile extends Exception {
        private static final long serialVersionUID = 1L;

        UnreadableArgumentFile(String message) {
            super(message);
        }
    }
}
