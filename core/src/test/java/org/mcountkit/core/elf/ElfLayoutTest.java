package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.RelocationInfo;

/** The offsets the layout derives from the word size are elf.h's, and r_info packs as ELF32/64_R_INFO do. */
class ElfLayoutTest {

    @Test
    void elf32FieldsSitWhereElfHPutsThem() {
        ElfLayout l = ElfLayout.ELF32;
        assertEquals(
                List.of(1, 4, 52, 32, 36, 40, 46, 48, 50),
                List.of(
                        l.eiClass(),
                        l.wordSize(),
                        l.ehdrSize(),
                        l.eShoff(),
                        l.eFlags(),
                        l.eEhsize(),
                        l.eShentsize(),
                        l.eShnum(),
                        l.eShstrndx()));
        assertEquals(
                List.of(40, 8, 12, 16, 20, 24, 28, 32, 36),
                List.of(
                        l.shdrSize(),
                        l.shFlags(),
                        l.shAddr(),
                        l.shOffset(),
                        l.shSize(),
                        l.shLink(),
                        l.shInfo(),
                        l.shAddralign(),
                        l.shEntsize()));
        assertEquals(
                List.of(16, 4, 8, 12, 13, 14),
                List.of(l.symSize(), l.stValue(), l.stSize(), l.stInfo(), l.stOther(), l.stShndx()));
        assertEquals(
                List.of(8, 12, 4, 8), List.of(l.relocationSize(false), l.relocationSize(true), l.rInfo(), l.rAddend()));
    }

    @Test
    void elf64FieldsSitWhereElfHPutsThem() {
        ElfLayout l = ElfLayout.ELF64;
        assertEquals(
                List.of(2, 8, 64, 40, 48, 52, 58, 60, 62),
                List.of(
                        l.eiClass(),
                        l.wordSize(),
                        l.ehdrSize(),
                        l.eShoff(),
                        l.eFlags(),
                        l.eEhsize(),
                        l.eShentsize(),
                        l.eShnum(),
                        l.eShstrndx()));
        assertEquals(
                List.of(64, 8, 16, 24, 32, 40, 44, 48, 56),
                List.of(
                        l.shdrSize(),
                        l.shFlags(),
                        l.shAddr(),
                        l.shOffset(),
                        l.shSize(),
                        l.shLink(),
                        l.shInfo(),
                        l.shAddralign(),
                        l.shEntsize()));
        assertEquals(
                List.of(24, 8, 16, 4, 5, 6),
                List.of(l.symSize(), l.stValue(), l.stSize(), l.stInfo(), l.stOther(), l.stShndx()));
        assertEquals(
                List.of(16, 24, 8, 16),
                List.of(l.relocationSize(false), l.relocationSize(true), l.rInfo(), l.rAddend()));
    }

    @Test
    void eachClassHasItsLayout() {
        assertEquals(ElfLayout.ELF32, ElfLayout.of(ElfClass.ELF32));
        assertEquals(ElfLayout.ELF64, ElfLayout.of(ElfClass.ELF64));
    }

    /** The gABI's r_info packing (api's RelocationInfo), checked against elf.h's ELF32/64_R_* macros. */
    @Test
    void relocationInfoPacksSymbolAndTypeAsElfHDoes() {
        assertEquals(0x123456_07L, RelocationInfo.ELF32.info(0x123456, 0x107));
        assertEquals(0xfedcba_01L, RelocationInfo.ELF32.info(0xfedcba, 1));
        assertEquals(0xfedcba, RelocationInfo.ELF32.symbol(0xfedcba_01L));
        assertEquals(1, RelocationInfo.ELF32.type(0xfedcba_01L));
        assertEquals(0x89abcdef_00000107L, RelocationInfo.ELF64.info(0x89abcdef, 0x107));
        assertEquals(0x89abcdef, RelocationInfo.ELF64.symbol(0x89abcdef_00000107L));
        assertEquals(0x107, RelocationInfo.ELF64.type(0x89abcdef_00000107L));
    }

    @Test
    void wordsAreAddressSizedAndOnlyAddendsAreSigned() {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
        ElfLayout.ELF32.putWord(b, 0, 0x1_ffff_fffeL);
        assertEquals(0xffff_fffeL, ElfLayout.ELF32.word(b, 0));
        assertEquals(-2, ElfLayout.ELF32.signedWord(b, 0));
        assertEquals(0, b.getInt(4));
        ElfLayout.ELF64.putWord(b, 8, -2);
        assertEquals(-2, ElfLayout.ELF64.word(b, 8));
        assertEquals(-2, ElfLayout.ELF64.signedWord(b, 8));
    }

    /** What putWord writes, whole: a value to patch into a file as one word. */
    @Test
    void wordBytesAreThePutWordInTheGivenOrder() {
        assertArrayEquals(
                new byte[] {0, 0, 0x12, 0x34}, ElfLayout.ELF32.wordBytes(0x1_0000_1234L, ByteOrder.BIG_ENDIAN));
        assertArrayEquals(
                new byte[] {0x34, 0x12, 0, 0, 1, 0, 0, 0},
                ElfLayout.ELF64.wordBytes(0x1_0000_1234L, ByteOrder.LITTLE_ENDIAN));
    }

    /** A value cut to a word and sign-extended is what signedWord reads back after putWord. */
    @Test
    void signedIsTheWordReadBackWithItsSign() {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : new long[] {0x1_ffff_fffeL, 0xffff_fffcL, 0x7fff_ffffL, -8L, 5L}) {
            for (ElfLayout l : ElfLayout.values()) {
                l.putWord(b, 0, v);
                assertEquals(l.signedWord(b, 0), l.signed(v), l + " " + Long.toHexString(v));
            }
        }
        assertEquals(-2, ElfLayout.ELF32.signed(0x1_ffff_fffeL));
        assertEquals(0x1_ffff_fffeL, ElfLayout.ELF64.signed(0x1_ffff_fffeL));
    }
}
