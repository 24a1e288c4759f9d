package io.tokenpulse.runner.sweep;

import java.util.List;
import java.util.Map;

/**
 * One benchmark configuration of a sweep.
 *
 * @param name {@code num_prompts=4,random_input_len=80} (the server setting's and the row's parts first)
 * @param params the swept values by parameter name ({@code num_prompts})
 * @param benchArgs the bench command line of this point (without the result-file flags the sweep adds)
 */
public record SweepPoint(String name, Map<String, String> params, List<String> benchArgs) {}
