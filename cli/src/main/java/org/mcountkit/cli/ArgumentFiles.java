package org.mcountkit.cli;

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
 * Expands {@code @FILE} words for the lines read without picocli, by picocli's rules, so an
 * argument file means the same to {@code record} as to every other command: words split at
 * whitespace (every character up to the space), {@code "..."} and {@code '...'} quote (with Java's
 * escapes inside), {@code #} starts a comment to the end of the line, files nest (one already
 * expanded under the same word is skipped), {@code @@x} is the word {@code @x}, and a file that
 * cannot be read stays a word, {@code @FILE}, for the command to refuse as a file it cannot read.
 */
final class ArgumentFiles {

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
        // The platform's charset, as picocli reads argument files.
        try (@SuppressWarnings("DefaultCharset")
                Reader reader = new FileReader(file)) {
            StreamTokenizer words = new StreamTokenizer(reader);
            words.resetSyntax();
            words.wordChars(' ', 255);
            words.whitespaceChars(0, ' ');
            words.quoteChar('"');
            words.quoteChar('\'');
            words.commentChar('#');
            while (words.nextToken() != StreamTokenizer.TT_EOF) {
                addOrExpand(words.sval, out, visited);
            }
        } catch (IOException e) {
            throw new UnreadableArgumentFile("cannot read argument file @" + name + ": " + reason(e));
        }
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
