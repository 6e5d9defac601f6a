package org.mcountkit.core.testkit;

import java.nio.ByteBuffer;
import java.util.List;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.core.scan.CallTargets;
import org.mcountkit.core.scan.CodeReader;
import org.mcountkit.core.scan.SiteState;

/**
 * Core's reading of a backend's decoder ({@link CodeReader}) on bytes a test holds: code at
 * {@code address} in the default instruction-set mode, a hook at {@code hook} (negative: the hook
 * is undefined, so any call counts).
 */
public final class CodeCheck {

    private final CodeReader reader;
    private final ElfTarget target;
    private final Abi abi;

    private CodeCheck(ArchBackend backend, ElfTarget target) {
        this.reader = new CodeReader(backend, target);
        this.target = target;
        this.abi = backend.abi(target);
    }

    public static CodeCheck of(ArchBackend backend, ElfTarget target) {
        return new CodeCheck(backend, target);
    }

    /** What the site at {@code offset} holds. */
    public SiteState state(ByteBuffer bytes, int offset, long address, long hook) {
        return reader.state(code(bytes, address), offset, targets(hook));
    }

    /** The calls to the hook in all of {@code bytes}, as a walk through one function finds them. */
    public List<CodeReader.HookCall> hookCalls(ByteBuffer bytes, long address, long hook) {
        return reader.hookCalls(code(bytes, address), 0, bytes.limit(), targets(hook));
    }

    /** Length of the no-op at {@code offset}, 0 when there is none. */
    public int nopLength(ByteBuffer bytes, int offset) {
        return reader.nopRun(code(bytes, 0), offset, 1);
    }

    /** How many bytes the site at {@code offset} spans. */
    public int siteLength(ByteBuffer bytes, int offset) {
        return reader.siteLength(code(bytes, 0), offset);
    }

    private Code code(ByteBuffer bytes, long address) {
        return new Code(abi, target, bytes, address, InstructionSet.DEFAULT);
    }

    private static CallTargets targets(long hook) {
        return hook < 0 ? CallTargets.any() : CallTargets.at(hook);
    }
}
