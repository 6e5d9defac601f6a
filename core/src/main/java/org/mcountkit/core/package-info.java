/**
 * The mcountkit library. {@link org.mcountkit.core.Mcountkit} is the entry point; the supported
 * API is that class, the types its methods take and return ({@link org.mcountkit.core.pipeline.FileReport},
 * {@link org.mcountkit.core.pipeline.Recorder.Options}, {@link org.mcountkit.core.batch.Outcome},
 * and the records of the {@code org.mcountkit.api} module; for the post-link commands
 * {@link org.mcountkit.core.postlink.Table}, {@link org.mcountkit.core.postlink.TableMaker.Options},
 * {@link org.mcountkit.core.postlink.TableFormat}, {@link org.mcountkit.core.postlink.Verification},
 * {@link org.mcountkit.core.postlink.PatchResult} and {@link org.mcountkit.core.postlink.Patcher.Options}),
 * {@link org.mcountkit.core.InputException} and {@link org.mcountkit.core.FileInputException},
 * and the report writers of {@code org.mcountkit.core.output} (with
 * {@link org.mcountkit.core.output.OneLine}, which makes names from a file printable). The
 * command-line front end uses nothing else (a test checks its imports); the other classes of this module may change.
 */
package org.mcountkit.core;
