package org.mcountkit.core.scan;

import java.util.Optional;
import java.util.TreeSet;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.HookSymbols;

/**
 * Why a file has no site at all, when nothing else said so: an empty listing should tell a
 * stripped program from one built without {@code -pg} from one whose hook no function calls.
 */
final class NoSitesReason {

    private NoSitesReason() {}

    static Optional<Diagnostic> of(ElfImage image) {
        boolean hasTable = image.file().sections().stream()
                .anyMatch(s -> s.name().equals(McountLocSections.TABLE)
                        || s.name().equals(TableSites.PATCHABLE_FUNCTION_ENTRIES));
        if (hasTable) {
            // A table that gave no site: what was wrong with it has been said.
            return Optional.empty();
        }
        if (SlimLto.is(image.file())) {
            return note(SlimLto.MESSAGE);
        }
        HookSymbols hooks = image.hooks();
        String tables = "there is no __mcount_loc or __patchable_function_entries table";
        if (image.linked() && image.file().symbolCount() == 0) {
            return note("no symbol table (stripped) and " + tables
                    + ": the functions of its code are unknown, so calls to the hook cannot be looked for");
        }
        if (hooks.none() && hooks.undefined().isEmpty()) {
            return note("no symbol names a hook ("
                    + String.join(", ", new TreeSet<>(image.abi().hooks())) + ") and " + tables
                    + ": probably built without -pg, -mfentry or -fpatchable-function-entry");
        }
        if (!hooks.defined().isEmpty()) {
            return note("no function calls "
                    + String.join(", ", new TreeSet<>(hooks.defined().values())) + ", which this file defines, and "
                    + tables);
        }
        // An undefined hook: the scan or the code decoder has said why its references are no sites.
        return Optional.empty();
    }

    private static Optional<Diagnostic> note(String message) {
        return Optional.of(Diagnostic.of(Severity.NOTE, message));
    }
}
