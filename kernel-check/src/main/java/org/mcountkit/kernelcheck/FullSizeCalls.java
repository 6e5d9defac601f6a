package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-call log of a --config build (fullsize-wrapper.sh's recordmcount-calls.log), one line per
 * call: OBJECT C_STATUS C_MICROSECONDS MCOUNTKIT_STATUS MCOUNTKIT_MICROSECONDS. The build is resumed
 * across runs and make compiles an object again when it must, so an object can have several lines:
 * its last one is the call whose results the folders hold, and the only one counted.
 */
record FullSizeCalls(int calls, List<Call> last) {

    /** One recordmcount call: the C tool's status and time on the copy, mcountkit's on the object. */
    record Call(String object, int cStatus, long cMicros, int mStatus, long mMicros) {}

    static FullSizeCalls read(Path log) {
        return parse(log.toString(), Processes.text(log).lines().toList());
    }

    /** The calls of {@code lines} (read from {@code file}, named in the error of a bad line). */
    static FullSizeCalls parse(String file, List<String> lines) {
        Map<String, Call> last = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).trim().split(" ");
            try {
                if (f.length != 5) {
                    throw new NumberFormatException("not 5 fields");
                }
                Call call = new Call(
                        f[0],
                        Integer.parseInt(f[1]),
                        Long.parseLong(f[2]),
                        Integer.parseInt(f[3]),
                        Long.parseLong(f[4]));
                // Removed first, so the map keeps the objects in the order of their last call.
                last.remove(call.object());
                last.put(call.object(), call);
            } catch (NumberFormatException e) {
                throw new KernelCheckException(
                        file + ":" + (i + 1) + ": not a call line (OBJECT C_STATUS C_MICROSECONDS"
                                + " MCOUNTKIT_STATUS MCOUNTKIT_MICROSECONDS): " + lines.get(i));
            }
        }
        return new FullSizeCalls(lines.size(), List.copyOf(last.values()));
    }

    /** The objects, each once, sorted: the ones both folders hold the last call's results of. */
    List<String> objects() {
        return last.stream().map(Call::object).sorted().toList();
    }

    double cSeconds() {
        return last.stream().mapToLong(Call::cMicros).sum() / 1e6;
    }

    double mcountkitSeconds() {
        return last.stream().mapToLong(Call::mMicros).sum() / 1e6;
    }

    /** The objects whose last call the C tool failed on, "OBJECT (exit N)". */
    List<String> cFailed() {
        return last.stream()
                .filter(c -> c.cStatus() != 0)
                .map(c -> c.object() + " (exit " + c.cStatus() + ")")
                .toList();
    }

    /**
     * The C tool's logged failures ("OBJECT: MESSAGE") that still hold: the last line of each object
     * whose last call the C tool failed on (an object rebuilt since and recorded has none).
     */
    List<String> failures(List<String> failureLines) {
        Map<String, String> byObject = new LinkedHashMap<>();
        for (String line : failureLines) {
            int colon = line.indexOf(": ");
            if (colon > 0) {
                byObject.put(line.substring(0, colon), line);
            }
        }
        List<String> failures = new ArrayList<>();
        for (Call call : last) {
            if (call.cStatus() != 0 && byObject.containsKey(call.object())) {
                failures.add(byObject.get(call.object()));
            }
        }
        return failures;
    }
}
