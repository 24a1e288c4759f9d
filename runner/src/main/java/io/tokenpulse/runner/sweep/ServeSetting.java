package io.tokenpulse.runner.sweep;

import java.util.List;
import java.util.Map;

/**
 * A server setting of a sweep and the points run against it.
 *
 * @param name the setting's part of the point names ("" without --serve-params)
 * @param params its flags by parameter name (for sweep.json)
 * @param serverArgs the flags appended to --serve-cmd
 */
public record ServeSetting(String name, Map<String, String> params, List<String> serverArgs, List<SweepPoint> points) {}
