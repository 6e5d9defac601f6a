package org.mcountkit.core.postlink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.files.ChangedFileException;
import org.mcountkit.core.image.IoReason;
import org.mcountkit.core.image.RaceWindows;

/**
 * Writes a table to its output file, which is never one of the inputs (the same file through any
 * link: {@code table -o X X} would destroy X, as {@code ld} refuses too), never followed through a
 * symlink (a link at the name is replaced, as {@code ld -o} does, so a link another user plants in
 * a shared directory leads nowhere), never a device or other special file, and not read-only.
 * The output is resolved once; what is at its name at the rename must be what was resolved.
 */
public final class TableFile {

    private final RaceWindows races;

    /** A writer whose {@code races} act between the output's resolution and its rename (tests). */
    public TableFile(RaceWindows races) {
        this.races = races;
    }

    /**
     * Writes {@code bytes} to {@code out}.
     *
     * @return what the write has to say: litter of other runs left beside the output
     * @throws InputException when {@code out} is an input, is not to be written, changed
     *     meanwhile, or cannot be written
     */
    public List<Diagnostic> write(byte[] bytes, Path out, List<Path> inputs) {
        try {
            requireNoInput(out, inputs);
            AtomicFile.Output output = AtomicFile.Output.of(out);
            String refusal = output.refusal();
            if (refusal != null) {
                throw new InputException(output.kind() == null ? Failure.UNWRITABLE : Failure.NOT_A_FILE, refusal);
            }
            races.beforeReplace(output.path());
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            String litter = AtomicFile.create(output, channel -> {
                        while (buffer.hasRemaining()) {
                            channel.write(buffer);
                        }
                    })
                    .note();
            return litter == null ? List.of() : List.of(Diagnostic.of(Severity.WARNING, litter));
        } catch (ChangedFileException e) {
            throw new InputException(
                    Failure.CHANGED_WHILE_READ,
                    "the output changed while the table was made (" + e.getMessage() + "): left as it is now");
        } catch (IOException e) {
            throw new InputException(Failure.UNWRITABLE, "cannot write: " + IoReason.of(e), e);
        }
    }

    /** Refuses an output that is, through any link, the same file as an input. */
    private static void requireNoInput(Path out, List<Path> inputs) throws IOException {
        Object key;
        try {
            key = Files.readAttributes(out, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            return; // nothing there, or a dangling link: no input
        }
        for (Path input : inputs) {
            try {
                if (key != null
                        && key.equals(Files.readAttributes(input, BasicFileAttributes.class)
                                .fileKey())) {
                    throw new InputException(
                            Failure.UNWRITABLE,
                            "is also an input (" + input + "): the table would replace it, so nothing is written");
                }
            } catch (NoSuchFileException e) {
                // The input is gone since it was read: it is not the output.
            }
        }
    }
}
