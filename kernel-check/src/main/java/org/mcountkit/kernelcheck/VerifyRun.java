package org.mcountkit.kernelcheck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mcountkit verify} of one kernel's vmlinux, JSON and text.
 * Entries that hold the expected call but lie in no function symbol are the code of weak
 * functions another definition replaced (the linker drops their symbols; ftrace NOPs them like any
 * other). They are accepted, and only they: verify's JSON finding must give that reason and its
 * bytes must be the expected call or NOP. A verify that reports them in a kind of their own (exit
 * 0, no finding) passes the same check.
 */
record VerifyRun(
        int status, long checked, long zeros, int findings, List<String> weak, List<String> bad, String summary) {

    static VerifyRun run(Mcountkit mcountkit, Path dir) {
        Path vmlinux = dir.resolve("vmlinux");
        int status = mcountkit.run(
                dir.resolve("verify.json"), dir.resolve("verify.err"), "verify", "--json", vmlinux.toString());
        mcountkit.run(dir.resolve("verify.txt"), dir.resolve("verify.txt"), "verify", vmlinux.toString());
        if (status > 1) {
            throw new KernelCheckException(Processes.text(dir.resolve("verify.err")) + vmlinux
                    + ": mcountkit verify failed (exit " + status + ")");
        }
        try {
            JsonNode file = new ObjectMapper()
                    .readTree(dir.resolve("verify.json").toFile())
                    .get(0);
            List<String> text = Files.readAllLines(dir.resolve("verify.txt"));
            List<String> weak = new ArrayList<>();
            List<String> bad = new ArrayList<>();
            for (JsonNode f : file.get("findings")) {
                String place =
                        f.get("table").asText() + " " + f.get("entryOffset").asLong();
                if (isOverriddenWeak(f)) {
                    weak.add(place);
                    continue;
                }
                String needle = ": " + f.get("table").asText() + "+0x"
                        + Long.toHexString(f.get("entryOffset").asLong()) + " ";
                List<String> lines =
                        text.stream().filter(l -> l.contains(needle)).toList();
                bad.addAll(
                        lines.isEmpty()
                                ? List.of(f.get("table").asText() + "+"
                                        + f.get("entryOffset").asLong() + " (not in verify's text output)")
                                : lines);
            }
            VerifyRun run = new VerifyRun(
                    status,
                    file.get("checked").asLong(),
                    file.get("zeros").asLong(),
                    file.get("findings").size(),
                    weak,
                    bad,
                    text.isEmpty() ? "" : afterVmlinux(text.get(text.size() - 1)));
            Files.writeString(dir.resolve("verify.counts"), run.checked + " " + run.zeros + " " + run.findings + "\n");
            Files.write(dir.resolve("verify.weak"), weak);
            Files.write(dir.resolve("verify.bad"), bad);
            Files.writeString(dir.resolve("verify.status"), status + "\n");
            return run;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** verify's reason, and the expected call's (or NOP's) bytes. */
    private static boolean isOverriddenWeak(JsonNode f) {
        JsonNode found = f.get("found");
        return f.get("reason").asText().contains("no function")
                && found != null
                && !found.isNull()
                && f.get("expected").asText().contains("(" + found.asText() + ")");
    }

    /** A verify line without its file name ("…/vmlinux: "). */
    static String afterVmlinux(String line) {
        int at = line.lastIndexOf("/vmlinux: ");
        return at < 0 ? line : line.substring(at + "/vmlinux: ".length());
    }
}
