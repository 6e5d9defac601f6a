/**
 * The mcountkit library. {@link org.mcountkit.core.Mcountkit} is the entry point; the supported
 * API is that class, the types its methods take and return ({@link org.mcountkit.core.pipeline.FileReport},
 * {@link org.mcountkit.core.pipeline.Recorder.Options}, {@link org.mcountkit.core.batch.Outcome},
 * and the records of the {@code org.mcountkit.api} module), {@link org.mcountkit.core.InputException},
 * and the report writers of {@code org.mcountkit.core.output}. The command-line front end uses
 * nothing else (a test checks its imports); the other classes of this module may change.
 */
package org.mcountkit.core;
