package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every object and module of the mcountkit build against the C build's copy, table by table:
 * byte-identical, the same table with only padding or data
 * neither tool writes differing, no table from a C tool that failed, sites the C tool dropped
 * across sections (MIPS), no table from a C tool that skips the object by its name, entries the C
 * tool made for references to the hook that are not calls, or unexplained.
 */
record ObjectComparison(
        int objects,
        int identical,
        int padding,
        int failedC,
        int droppedC,
        int skippedC,
        int nonCallsC,
        int unexplained,
        List<String> differences,
        List<String> droppedObjects) {

    /**
     * --per-link: no per-object tables of mcountkit's to compare, but the C build's MIPS objects
     * still show which sites the C tool dropped across sections, so that the vmlinux difference
     * they make is explained as per object.
     */
    static ObjectComparison cToolDrops(Path cDir) {
        List<String> dropped = new ArrayList<>();
        List<String> diff = new ArrayList<>();
        for (String rel : objectsOf(cDir)) {
            Path object = cDir.resolve(rel);
            if (ObjectTables.isMips(object)) {
                List<String> drops = ObjectTables.mipsCrossSectionDrops(object);
                if (!drops.isEmpty()) {
                    dropped.add(rel);
                    diff.add(rel + ": the C tool dropped " + String.join(" ", drops)
                            + " (MIPS_is_fake_mcount keeps the last offset in a static variable)");
                }
            }
        }
        return new ObjectComparison(0, 0, 0, 0, dropped.size(), 0, 0, 0, diff, dropped);
    }

    static ObjectComparison compare(Path cDir, Path mDir, List<String> cFailures) {
        return compare(cDir, mDir, objectsOf(mDir), cFailures);
    }

    /**
     * The objects {@code rels} (relative paths) of the two folders: --config's one build keeps the C
     * tool's copy of only the objects recordmcount saw, so it names them.
     */
    static ObjectComparison compare(Path cDir, Path mDir, List<String> rels, List<String> cFailures) {
        int objects = 0;
        int identical = 0;
        int padding = 0;
        int failedC = 0;
        int droppedC = 0;
        int skippedC = 0;
        int nonCallsC = 0;
        int unexplained = 0;
        List<String> diff = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (String rel : rels) {
            Path a = cDir.resolve(rel);
            Path b = mDir.resolve(rel);
            if (!Files.isRegularFile(a)) {
                diff.add(rel + ": only in the mcountkit build");
                unexplained++;
                continue;
            }
            if (rel.equals(WeakModule.KO)) {
                // Pruned on purpose in the mcountkit build: ModulesCheck checks what prune changed.
                continue;
            }
            boolean same = Arrays.equals(ObjectTables.read(a), ObjectTables.read(b));
            String ta = ObjectTables.table(a);
            String tb = same ? ta : ObjectTables.table(b);
            if (ta.isEmpty() && tb.isEmpty()) {
                continue;
            }
            objects++;
            Optional<String> failure =
                    cFailures.stream().filter(l -> l.startsWith(rel + ": ")).findFirst();
            Optional<String> data;
            if (same) {
                identical++;
            } else if (ta.equals(tb) && ObjectTables.differsOnlyInPadding(a, b)) {
                padding++;
                diff.add(rel + ": same table (" + ObjectTables.entries(b)
                        + " entries); differs only in alignment padding outside every section:"
                        + ObjectTables.paddingBytes(a, b));
            } else if (ta.equals(tb) && (data = ObjectTables.differsOnlyInData(a, b)).isPresent()) {
                padding++;
                diff.add(rel + ": same table (" + ObjectTables.entries(b)
                        + " entries); differs only in data neither tool writes: " + data.get());
            } else if (ta.isEmpty() && failure.isPresent()) {
                failedC++;
                String reason = failure.get().substring(failure.get().indexOf(' ') + 1);
                diff.add(rel + ": no table from the C tool, which failed: " + reason + "; mcountkit's has "
                        + ObjectTables.entries(b) + " entries");
            } else if (mipsCToolDropped(a, b)) {
                droppedC++;
                dropped.add(rel);
                diff.add(
                        rel + ": the C tool dropped " + String.join(" ", ObjectTables.mipsCrossSectionDrops(a))
                                + ", each 4 bytes past the hook relocation it saw last, in another section"
                                + " (MIPS_is_fake_mcount keeps that offset in a static variable); every other entry is the same");
            } else if (ta.isEmpty() && skippedByName(rel)) {
                skippedC++;
                diff.add(rel + ": no table from the C tool, which skips every file named */ftrace.o"
                        + " (scripts/recordmcount.c, for kernel/trace/ftrace.o's non-call references);"
                        + " mcountkit's has " + ObjectTables.entries(b) + " entries, its calls");
            } else if (cRecordedNonCalls(a, b)) {
                nonCallsC++;
                diff.add(rel + ": the C tool also recorded references to the hook that are not calls"
                        + " (an absolute relocation: the hook's address compared or stored), which mcountkit rejects;"
                        + " every other entry is the same (C tool " + ObjectTables.entries(a) + " entries, mcountkit "
                        + ObjectTables.entries(b) + ")");
            } else {
                unexplained++;
                diff.add(rel + ": tables differ (C tool " + ObjectTables.entries(a) + " entries, mcountkit "
                        + ObjectTables.entries(b) + ") for no known reason:");
                diff.addAll(lineDiff(ta, tb));
            }
        }
        return new ObjectComparison(
                objects, identical, padding, failedC, droppedC, skippedC, nonCallsC, unexplained, diff, dropped);
    }

    /**
     * Whether the C tool's table is mcountkit's plus entries for x86 references to the hook that
     * are not calls (docs/differences.md, first row).
     */
    static boolean cRecordedNonCalls(Path c, Path mcountkit) {
        List<String> extra = new ArrayList<>(ObjectTables.entrySites(c));
        List<String> ours = ObjectTables.entrySites(mcountkit);
        if (!extra.containsAll(ours)) {
            return false;
        }
        extra.removeAll(ours);
        return !extra.isEmpty() && ObjectTables.nonCallHookReferences(c).containsAll(extra);
    }

    /** The C tool's main() skips a file whose name ends in "/ftrace.o", whatever it holds. */
    static boolean skippedByName(String rel) {
        return ("/" + rel).endsWith("/ftrace.o");
    }

    /** The counts, one line of the report. */
    String summary() {
        return "Objects with a table: " + objects + "; byte-identical: " + identical
                + "; same table, only padding or data neither tool writes differs: " + padding
                + "; C tool failed: " + failedC + ";"
                + (droppedC > 0 ? " C tool dropped sites across sections (MIPS): " + droppedC + ";" : "")
                + (skippedC > 0 ? " C tool skipped by name (*/ftrace.o): " + skippedC + ";" : "")
                + (nonCallsC > 0 ? " C tool recorded non-call references: " + nonCallsC + ";" : "")
                + " unexplained: " + unexplained;
    }

    /** Every .o and .ko of a build folder but vmlinux.o and the .tmp_ files, relative, sorted. */
    static List<String> objectsOf(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> {
                        String name = p.getFileName().toString();
                        return (name.endsWith(".o") || name.endsWith(".ko"))
                                && !name.equals("vmlinux.o")
                                && !name.startsWith(".tmp_");
                    })
                    .map(p -> dir.relativize(p).toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * True when the two MIPS objects' tables differ only by the hook relocations the C tool
     * dropped across sections: mcountkit's entries are the C tool's and those.
     */
    private static boolean mipsCToolDropped(Path a, Path b) {
        if (!ObjectTables.isMips(a)) {
            return false;
        }
        List<String> drops = ObjectTables.mipsCrossSectionDrops(a);
        if (drops.isEmpty()) {
            return false;
        }
        List<String> expected = new ArrayList<>(ObjectTables.entryPlaces(a));
        expected.addAll(drops);
        List<String> actual = new ArrayList<>(ObjectTables.entryPlaces(b));
        expected.sort(null);
        actual.sort(null);
        return expected.equals(actual);
    }

    /** The lines only the C tool's table has ("< ") and only mcountkit's has ("> "), indented. */
    private static List<String> lineDiff(String a, String b) {
        Set<String> left = new HashSet<>(a.lines().toList());
        Set<String> right = new HashSet<>(b.lines().toList());
        List<String> out = new ArrayList<>();
        a.lines().filter(l -> !right.contains(l)).forEach(l -> out.add("    < " + l));
        b.lines().filter(l -> !left.contains(l)).forEach(l -> out.add("    > " + l));
        return out;
    }
}
