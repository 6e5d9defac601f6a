package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The launcher's training run for the JVM's class-data archive: one process that takes both
 * paths a later run may take, {@code record}'s own reader and picocli's, on a copy of a sample
 * object, printing nothing.
 */
public final class TrainingRun {

    private TrainingRun() {}

    public static void main(String[] args) throws IOException {
        Path scratch = Files.createTempDirectory("mcountkit-training");
        Path object = scratch.resolve("train.o");
        try {
            Files.copy(Path.of(args[0]), object, StandardCopyOption.REPLACE_EXISTING);
            PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
            Main.run(nowhere, nowhere, "record", "-q", object.toString());
            Main.run(nowhere, nowhere, "list", "-q", object.toString());
        } finally {
            Files.deleteIfExists(object);
            Files.deleteIfExists(scratch);
        }
    }
}
