package org.mcountkit.core.testkit;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Outcome;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.batch.BatchRunner;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.pipeline.Recorder;
import org.mcountkit.core.pipeline.Rewriting;
import org.mcountkit.core.postlink.Patcher;
import org.mcountkit.core.postlink.Pruner;
import org.mcountkit.core.postlink.TableFile;
import org.slf4j.helpers.NOPLogger;

/**
 * core's writers with a test's hooks at their race windows, for the write-safety tests of other
 * modules (they need the backends): the facade, {@code Mcountkit}, always passes
 * {@link RaceWindows#NONE}. Tests outside core reach core's internals only through this class,
 * so the module exports none of them; the backends are the class path's.
 */
public final class RacingWriters {

    /** The end of the private directory's name a writer makes beside its file ({@code .NAME.PID.HEX}). */
    public static final String TEMP_SUFFIX = AtomicFile.TEMP_SUFFIX;

    private RacingWriters() {}

    public static FileReport record(Path file, RecordOptions options, RaceWindows races) {
        return new Recorder(new Rewriting(Backends.load(), NOPLogger.NOP_LOGGER, races)).record(file, options);
    }

    /** {@link #record}, its exception (if any) turned into a failed outcome as a batch run turns it. */
    public static Outcome recordInBatch(Path file, RecordOptions options, RaceWindows races) {
        return new BatchRunner(1)
                .run(List.of(file), f -> record(f, options, races), o -> {})
                .get(0);
    }

    public static PatchResult patch(Path file, PatchOptions options, RaceWindows races) {
        return new Patcher(new Rewriting(Backends.load(), NOPLogger.NOP_LOGGER, races)).patch(file, options);
    }

    public static PruneResult prune(Path file, PruneOptions options, RaceWindows races) {
        return new Pruner(new Rewriting(Backends.load(), NOPLogger.NOP_LOGGER, races)).prune(file, options);
    }

    /** Writes {@code bytes} to {@code out} as {@code table -o} writes a table of {@code inputs}. */
    public static List<Diagnostic> writeTable(byte[] bytes, Path out, List<Path> inputs, RaceWindows races) {
        return new TableFile(races).write(bytes, out, inputs);
    }
}
