package org.mcountkit.core.pipeline;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.MappedElfFile;

/** Opens inputs, turning I/O failures into one-line reasons. */
public final class ElfFiles {

    private ElfFiles() {}

    /**
     * Reads {@code path} as an ELF file.
     *
     * @throws InputException naming the reason when it is not a readable ELF file
     */
    public static ElfFile open(Path path) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            if (attributes.isDirectory()) {
                throw new InputException(Failure.NOT_A_FILE, "is a directory");
            }
            if (!attributes.isRegularFile()) {
                throw new InputException(Failure.NOT_A_FILE, "not a regular file");
            }
            return MappedElfFile.open(path);
        } catch (NoSuchFileException e) {
            throw new InputException(Failure.NO_SUCH_FILE, "no such file");
        } catch (AccessDeniedException e) {
            throw new InputException(Failure.UNREADABLE, "permission denied");
        } catch (IOException e) {
            throw new InputException(Failure.UNREADABLE, "cannot read: " + e.getMessage(), e);
        }
    }
}
