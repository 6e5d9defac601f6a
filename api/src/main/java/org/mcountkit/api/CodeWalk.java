package org.mcountkit.api;

/** How a walk through a machine's code steps from one place to the next. */
public enum CodeWalk {
    /** Past each instruction as the decoder delimits it: fixed-width or self-delimiting code. */
    BY_INSTRUCTION,
    /**
     * Byte by byte: instructions have no fixed length or alignment and the decoder does not
     * delimit them (x86), so a call is never hidden by a misread instruction before it.
     */
    BY_BYTE
}
