package org.mcountkit.core.pipeline;

import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.Recognition;

/**
 * Judges a relocation that names a hook, the one way for every machine: a relocation the ABI
 * declares a companion marks nothing; one it declares a call's is a site where
 * {@link ArchBackend#decode} reads a call at its place (or, in a linked image, the site's NOP a
 * patch left), a tail call where decode reads a jump, and refused in an object when only a
 * linker writes that form; the rest goes to the backend's
 * {@link ArchBackend#recognize}, which words what decode does not read (the hook's address taken,
 * or a sequence over several relocations).
 */
final class HookJudge {

    private final ArchBackend backend;
    private final CodeReader reader;

    HookJudge(ArchBackend backend, CodeReader reader) {
        this.backend = backend;
        this.reader = reader;
    }

    Recognition judge(HookReference ref, Code code) {
        Abi abi = ref.abi();
        int type = ref.type();
        if (abi.companionRelocations().contains(type)) {
            return Recognition.partOfSite();
        }
        Integer back = abi.callFieldOffsets().get(type);
        if (back == null) {
            return backend.recognize(ref);
        }
        if (!ref.linked() && abi.linkedOnlyCalls().contains(type)) {
            return Recognition.rejected("not a call site: " + ref.relocationName()
                    + " in an object (a form only the linker writes, relaxing a call; compilers emit the"
                    + " full call, which ftrace patches)");
        }
        long at = ref.offset() - back;
        if (at < 0 || at >= code.bytes().limit()) {
            return ref.notACall("at a truncated instruction");
        }
        Code inMode = code.withMode(abi.callMode(type));
        Instruction instruction = reader.decode(inMode, (int) at);
        if (instruction instanceof Instruction.Call call) {
            return Recognition.site(at, call.length());
        }
        if (ref.linked() && instruction instanceof Instruction.Nop) {
            // A site `patch --nop` (or the kernel's own tool) already turned into the NOP.
            return Recognition.site(at, reader.siteLength(inMode, (int) at));
        }
        if (instruction instanceof Instruction.Jump) {
            return ref.notACall("on a jump (a tail call to the hook)");
        }
        return backend.recognize(ref);
    }
}
