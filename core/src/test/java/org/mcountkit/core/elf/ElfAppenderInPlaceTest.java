package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.core.InputException;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.testkit.Samples;

/**
 * An in-place edit, as patch makes: the new file is the old one with the patched bytes and the
 * retyped relocation's r_info changed, byte for byte, in every class and byte order.
 */
class ElfAppenderInPlaceTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"i386-fentry.o", "x86_64-fentry.o", "aarch64_be-pg.o"})
    void changesOnlyThePatchedBytesAndTheRetypedInfo(String sample) throws IOException {
        Path object = Files.copy(Samples.samples().resolve("obj").resolve(sample), dir.resolve(sample));
        byte[] before = Files.readAllBytes(object);
        ElfFile file = MappedElfFile.open(object);
        Section text = file.section(".text").orElseThrow();
        Section relocations = file.sections().stream()
                .filter(s -> s.isRelocationSection() && s.info() == text.index())
                .findFirst()
                .orElseThrow();
        Relocation second = file.relocations(relocations).get(1);
        byte[] nops = {(byte) 0x90, (byte) 0x90, (byte) 0x90};

        ElfAppender out =
                ElfAppender.inPlace(file, RelocationInfo.standard(file.target().elfClass()));
        out.patch(text.offset() + 4, nops);
        out.retypeRelocation(relocations, 1, 0);
        AtomicFile.replace(AtomicFile.Existing.of(object), true, out::writeTo);

        byte[] after = Files.readAllBytes(object);
        assertEquals(before.length, after.length);
        ElfLayout layout = ElfLayout.of(file.target().elfClass());
        int info = (int) relocations.offset()
                + layout.relocationSize(relocations.type() == Section.SHT_RELA)
                + layout.rInfo();
        byte[] expected = before.clone();
        System.arraycopy(nops, 0, expected, (int) text.offset() + 4, nops.length);
        System.arraycopy(after, info, expected, info, layout.wordSize());
        assertArrayEquals(expected, after);
        ElfFile edited = MappedElfFile.open(object);
        assertEquals(
                new Relocation(second.offset(), 0, second.symbolIndex(), second.addend(), second.explicitAddend()),
                edited.relocations(edited.section(relocations.index())).get(1));
    }

    @Test
    void editsAFileWithoutSectionNamesWhichCannotBeAppendedTo() throws IOException {
        Path object = Files.copy(Samples.samples().resolve("obj/x86_64-fentry.o"), dir.resolve("t.o"));
        byte[] before = Files.readAllBytes(object);
        before[ElfLayout.ELF64.eShstrndx()] = 0;
        before[ElfLayout.ELF64.eShstrndx() + 1] = 0;
        Files.write(object, before);
        ElfFile file = MappedElfFile.open(object);
        assertThrows(
                InputException.class,
                () -> new ElfAppender(
                        file, RelocationInfo.standard(file.target().elfClass())));

        ElfAppender out =
                ElfAppender.inPlace(file, RelocationInfo.standard(file.target().elfClass()));
        long code = file.section(1).offset();
        out.patch(code, new byte[] {(byte) 0x90});
        AtomicFile.replace(AtomicFile.Existing.of(object), true, out::writeTo);

        byte[] expected = before.clone();
        expected[(int) code] = (byte) 0x90;
        assertArrayEquals(expected, Files.readAllBytes(object));
    }

    @Test
    void addsAndReplacesNoSections() throws IOException {
        ElfAppender out = ElfAppender.inPlace(
                MappedElfFile.open(Samples.samples().resolve("obj/x86_64-fentry.o")), RelocationInfo.ELF64);
        assertThrows(
                IllegalStateException.class,
                () -> out.addSection(NewSectionHeader.progbits(".new", 0, 1, 0), new byte[1]));
        assertThrows(IllegalStateException.class, () -> out.replaceContent(1, new byte[1]));
    }
}
