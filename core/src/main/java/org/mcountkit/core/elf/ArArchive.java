package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;

/**
 * The member list of a Unix {@code ar} archive, as GNU ar writes it (binutils bfd/archive.c):
 * {@code !<arch>\n}, then per member a 60-byte header (name 16, date 12, uid 6, gid 6, mode 8,
 * size 10, {@code `\n}) and its data, padded to an even offset. A name ending in {@code /} is
 * short, {@code /N} is at offset N of the long-name member {@code //} (each ended by
 * {@code /\n}), {@code #1/N} (BSD) is the first N bytes of the data; {@code /} and
 * {@code /SYM64/} are symbol tables. A thin archive ({@code !<thin>\n}, Kbuild's
 * {@code built-in.a}) has the same headers, but only the symbol and name tables have their data
 * there: each member is the file its name gives, relative to the archive's directory. Only the
 * headers are read, with positioned reads (mapping the archive instead made each member's open
 * keep the whole archive's pages resident until collected: 1.2 GB for 2,000 members of a 2.9 MB
 * archive); a member is a byte range, never copied.
 */
public final class ArArchive {

    private static final int MAGIC_LENGTH = 8;
    private static final byte[] ARCH = "!<arch>\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] THIN = "!<thin>\n".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = 60;
    /** Longer names than this (BSD's {@code #1/N}) are not names but damage. */
    private static final int NAME_LIMIT = 1 << 16;

    /**
     * One member: its name, and where its data lies in the archive ({@code offset} -1 in a thin
     * archive, whose members are files of their own).
     */
    public record Member(String name, long offset, long size) {}

    private ArArchive() {}

    /** True when {@code channel}'s file starts as an archive or a thin archive does. */
    public static boolean isArchive(FileChannel channel) throws IOException {
        return magic(channel) != null;
    }

    /** True when {@code channel}'s file is a thin archive, whose members are files named relative to it. */
    public static boolean isThin(FileChannel channel) throws IOException {
        return Boolean.TRUE.equals(magic(channel));
    }

    /**
     * The members holding files, in archive order (symbol and name tables left out).
     *
     * @throws InputException (malformed) when the file is not an archive or its headers do not hold together
     */
    public static List<Member> members(FileChannel channel) throws IOException {
        Boolean thin = magic(channel);
        if (thin == null) {
            throw damaged("no !<arch> or !<thin> magic");
        }
        long size = channel.size();
        List<Member> members = new ArrayList<>();
        byte[] longNames = new byte[0];
        long at = MAGIC_LENGTH;
        while (at < size) {
            if (size - at < HEADER) {
                throw damaged("member header at offset " + at + " is cut off by the end of the file");
            }
            ByteBuffer header = read(channel, at, HEADER);
            if (header.get(58) != '`' || header.get(59) != '\n') {
                throw damaged("no member header at offset " + at);
            }
            String rawName = text(header, 0, 16).stripTrailing();
            long length = number(text(header, 48, 10).strip(), at);
            long data = at + HEADER;
            boolean table = rawName.equals("/") || rawName.equals("/SYM64/") || rawName.equals("//");
            // A thin archive holds only its tables' data; its members are files of their own.
            boolean present = table || !thin;
            if (present && length > size - data) {
                throw damaged("member at offset " + at + " runs past the end of the file (" + length + " bytes)");
            }
            if (rawName.equals("//")) {
                longNames = new byte[(int) Math.min(length, Integer.MAX_VALUE - 8)];
                read(channel, data, longNames.length).get(longNames);
            } else if (!table) {
                String name;
                long start = data;
                long bytes = length;
                if (rawName.startsWith("#1/")) {
                    long nameLength = number(rawName.substring(3), at);
                    if (nameLength > length || nameLength > size - data || nameLength > NAME_LIMIT) {
                        throw damaged("member name at offset " + at + " is longer than the member or the file");
                    }
                    int n = (int) nameLength;
                    name = text(read(channel, data, n), 0, n).replaceAll("\0+$", "");
                    start += nameLength;
                    bytes -= nameLength;
                } else if (rawName.startsWith("/")) {
                    name = longName(longNames, number(rawName.substring(1), at), at);
                } else {
                    name = rawName.endsWith("/") ? rawName.substring(0, rawName.length() - 1) : rawName;
                }
                members.add(new Member(name, thin ? -1 : start, bytes));
            }
            at = present ? data + length + (length & 1) : data;
        }
        return members;
    }

    /** True for a thin archive, false for a plain one, null when the file is neither. */
    private static Boolean magic(FileChannel channel) throws IOException {
        if (channel.size() < MAGIC_LENGTH) {
            return null;
        }
        byte[] magic = new byte[MAGIC_LENGTH];
        read(channel, 0, MAGIC_LENGTH).get(magic);
        if (Arrays.equals(magic, ARCH)) {
            return false;
        }
        return Arrays.equals(magic, THIN) ? true : null;
    }

    private static String longName(byte[] table, long offset, long header) {
        if (offset < 0 || offset >= table.length) {
            throw damaged("member at offset " + header + " names long name " + offset + ", past the name table");
        }
        int end = (int) offset;
        while (end < table.length && table[end] != '\n') {
            end++;
        }
        String name = new String(table, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    private static ByteBuffer read(FileChannel channel, long at, int length) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length);
        while (bytes.hasRemaining()) {
            if (channel.read(bytes, at + bytes.position()) < 0) {
                throw damaged("the file ends inside the " + length + " bytes at offset " + at);
            }
        }
        return bytes.flip();
    }

    private static String text(ByteBuffer bytes, int from, int length) {
        byte[] field = new byte[length];
        bytes.get(from, field);
        return new String(field, StandardCharsets.UTF_8);
    }

    private static long number(String field, long header) {
        try {
            long value = Long.parseLong(field);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw damaged("member header at offset " + header + " has the bad number '" + field + "'");
    }

    private static InputException damaged(String reason) {
        return new InputException(Failure.MALFORMED, "damaged ar archive: " + reason);
    }
}
