package org.mcountkit.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The users of the processes at the other ends of loopback TCP connections to the build server,
 * as Linux tells them in {@code /proc/net/tcp}: a client's socket has the peer's port as its
 * local port and the server's as its remote one. The server counts connections per user, so one
 * user's idle connections cannot use up another's share. The table lists every socket of the
 * system, so it is read once for all the connections accepted together.
 */
final class PeerUsers {

    /** The user when it cannot be told (no such file, no such line): one shared share. */
    static final long UNKNOWN = -1;

    private static final int UID_FIELD = 7;

    private final Path table;

    PeerUsers(Path table) {
        this.table = table;
    }

    static PeerUsers ofThisSystem() {
        return new PeerUsers(Path.of("/proc/net/tcp"));
    }

    /** The user of each client connected to {@code serverPort}, by the client's port; empty if unreadable. */
    Map<Integer, Long> byPeerPort(int serverPort) {
        String remote = String.format(Locale.ROOT, ":%04X", serverPort);
        Map<Integer, Long> users = new HashMap<>();
        try (BufferedReader lines = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.contains(remote)) {
                    continue;
                }
                String[] fields = line.trim().split("\\s+");
                int colon = fields.length > UID_FIELD ? fields[1].indexOf(':') : -1;
                if (colon >= 0 && fields[2].endsWith(remote)) {
                    try {
                        users.put(
                                Integer.parseInt(fields[1].substring(colon + 1), 16),
                                Long.parseLong(fields[UID_FIELD]));
                    } catch (NumberFormatException e) {
                        // not a line of the table's format: no user told
                    }
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return users;
    }
}
