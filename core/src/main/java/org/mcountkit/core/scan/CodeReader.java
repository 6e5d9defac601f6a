package org.mcountkit.core.scan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.CodeWalk;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.core.Verification;
import org.mcountkit.core.image.ElfImage;

/**
 * Core's reading of machine code, on top of the one thing a backend knows ({@link
 * ArchBackend#decode what is at an offset}): whether that is a call to the hook, what a site
 * holds, how long a site and a NOP pad are, which calls a function makes, and what a site should
 * hold. Every command that looks at code asks here, so the rules live once.
 */
public record CodeReader(ArchBackend backend, ElfTarget target) {

    /** The reader for an image's code. */
    public static CodeReader of(ElfImage image) {
        return new CodeReader(image.backend(), image.target());
    }

    /** What is at {@code offset}; a place outside the code is {@code Other}. */
    public Instruction decode(Code code, int offset) {
        if (offset < 0 || offset >= code.bytes().limit()) {
            return new Instruction.Other(1);
        }
        Instruction found = backend.decode(code, offset);
        if (found.length() < 1) {
            // A walk would never move past it.
            throw new IllegalStateException(backend.name() + " decoded " + found + " at offset " + offset
                    + ": an instruction spans at least one byte");
        }
        if (offset + found.length() > code.bytes().limit() && !(found instanceof Instruction.Other)) {
            // A backend that misjudged the end: what does not fit is not an instruction here.
            return new Instruction.Other(1);
        }
        return found;
    }

    /** True when {@code instruction} is a call that {@code targets} count as the hook's. */
    public boolean callsHook(Instruction instruction, CallTargets targets) {
        if (!(instruction instanceof Instruction.Call call)) {
            return false;
        }
        return switch (call.destination()) {
            case TARGET -> targets.accepts(call.address() & target.addressMask());
            case SLOT -> targets.acceptsSlot(call.address() & target.addressMask());
            case UNKNOWN -> targets.isAny();
        };
    }

    /** Whether the site at {@code offset} holds a call to one of {@code targets}, the site's NOP, or neither. */
    public SiteState state(Code code, int offset, CallTargets targets) {
        Instruction here = decode(code, offset);
        if (here instanceof Instruction.Nop) {
            return SiteState.NOP;
        }
        return callsHook(here, targets) ? SiteState.CALL : SiteState.OTHER;
    }

    /**
     * How many bytes the site at {@code offset} spans, judged from its bytes: the call there
     * (which a linker may have left longer or shorter than the compiler's, x86's {@code addr32 call}
     * or RISC-V's relaxed {@code jal}), or the run of site NOPs up to the machine's site length
     * (shorter when the NOPs stop early: a relaxed site that was NOPed); otherwise the machine's
     * site length.
     */
    public int siteLength(Code code, int offset) {
        int standard = encodings(code.mode()).siteLength();
        Instruction here = decode(code, offset);
        if (here instanceof Instruction.Call) {
            return here.length();
        }
        if (!(here instanceof Instruction.Nop)) {
            return standard;
        }
        int length = 0;
        while (length < standard && decode(code, offset + length) instanceof Instruction.Nop nop) {
            length += nop.length();
        }
        return length;
    }

    /**
     * Bytes of no-ops (site NOPs and padding) from {@code offset}, counted until something else
     * or until at least {@code limit}: the pad of a patchable entry.
     */
    public int nopRun(Code code, int offset, int limit) {
        int length = 0;
        while (length < limit) {
            Instruction here = decode(code, offset + length);
            if (!(here instanceof Instruction.Nop) && !(here instanceof Instruction.Pad)) {
                break;
            }
            length += here.length();
        }
        return length;
    }

    /**
     * The calls to the hook in {@code length} bytes of code from {@code start} (one function),
     * offsets relative to {@code start}. The walk steps over each instruction as the decoder
     * delimits it; on machines whose decoder does not ({@link Abi#codeWalk}) it tries
     * every byte, stepping over a call only when it is the hook's.
     */
    public List<HookCall> hookCalls(Code code, int start, int length, CallTargets targets) {
        List<HookCall> calls = new ArrayList<>();
        int end = start + length;
        boolean byByte = backend.abi(target).codeWalk() == CodeWalk.BY_BYTE;
        int at = start;
        while (at < end) {
            Instruction here = decode(code, at);
            if (callsHook(here, targets) && at + here.length() <= end) {
                Instruction.Call call = (Instruction.Call) here;
                calls.add(new HookCall(
                        at - start, here.length(), call.destination(), call.address() & target.addressMask()));
                at += here.length();
            } else {
                at += byByte ? 1 : here.length();
            }
        }
        return calls;
    }

    /**
     * A call to the hook found by {@link #hookCalls}: {@code length} bytes at {@code offset}, going
     * to {@code address} or through the pointer slot there, as {@code destination} says.
     */
    public record HookCall(int offset, int length, Instruction.Call.Destination destination, long address) {}

    /**
     * What a site at {@code address} should hold, for messages: the call to each of
     * {@code calls} (address to name), or any call to a hook when there are none, or the NOP.
     */
    public Verification.Expected expected(long address, InstructionSet mode, Map<Long, String> calls) {
        PatchEncodings encodings = encodings(mode);
        List<Verification.HookCall> hookCalls = new ArrayList<>();
        for (Map.Entry<Long, String> call : calls.entrySet()) {
            byte[] bytes;
            try {
                bytes = encodings.call(address, call.getKey());
            } catch (EncodingException e) {
                bytes = null;
            }
            hookCalls.add(new Verification.HookCall(call.getValue(), bytes));
        }
        return new Verification.Expected(
                hookCalls,
                List.copyOf(new TreeSet<>(backend.abi(target).hooks())),
                encodings.nop(address, encodings.siteLength()));
    }

    public PatchEncodings encodings(InstructionSet mode) {
        return backend.encodings(target, mode);
    }
}
