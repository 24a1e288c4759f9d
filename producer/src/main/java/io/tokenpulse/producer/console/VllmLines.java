package io.tokenpulse.producer.console;

import io.tokenpulse.producer.schedule.ArrivalSettings;
import io.tokenpulse.schemas.python.PythonFloat;
import java.io.PrintStream;

/** The lines vLLM's benchmark prints before its progress bar, word for word: users' scripts grep them. */
public final class VllmLines {

    private VllmLines() {}

    public static void testRunStarting(PrintStream out) {
        out.println("Starting initial single prompt test run...");
    }

    /**
     * The end of the test run; with warm-ups to come, current vLLM's separate lines (the main run's line
     * follows them, {@link #warmUpCompleted}), else the one line of mid-2025 benchmark_serving.py.
     */
    public static void testRunCompleted(int warmUps, PrintStream out) {
        out.println(
                warmUps > 0
                        ? "Initial test run completed."
                        : "Initial test run completed. Starting main benchmark run...");
    }

    public static void warmUpStarting(int warmUps, PrintStream out) {
        out.println("Warming up with " + warmUps + " requests...");
    }

    public static void warmUpCompleted(PrintStream out) {
        out.println("Warmup run completed.");
        out.println("Starting main benchmark run...");
    }

    /** vLLM's message when the test request fails; the run stops with it. */
    public static String testRunFailed(String error) {
        return "Initial test run failed - Please make sure benchmark arguments are correctly specified. Error: "
                + error;
    }

    /** The traffic lines: rate or ramp-up, burstiness, concurrency, and the duration when one is set. */
    public static void traffic(
            ArrivalSettings arrivals, Integer maxConcurrency, Double durationMinutes, PrintStream out) {
        if (arrivals.rampUp() != null) {
            out.println("Traffic ramp-up strategy: "
                    + arrivals.rampUp().strategy().name().toLowerCase() + ".");
            // vLLM's ramp-up flags are ints: a whole rate prints without ".0".
            out.println("Will increase RPS from "
                    + PythonFloat.intOrRepr(arrivals.rampUp().startRps()) + " to "
                    + PythonFloat.intOrRepr(arrivals.rampUp().endRps()) + " RPS over the duration of the benchmark.");
        } else {
            out.println("Traffic request rate: " + PythonFloat.repr(arrivals.requestRate()));
        }
        out.println("Burstiness factor: " + PythonFloat.repr(arrivals.burstiness()) + " ("
                + (arrivals.burstiness() == 1.0 ? "Poisson process" : "Gamma distribution") + ")");
        out.println("Maximum request concurrency: " + (maxConcurrency == null ? "None" : maxConcurrency));
        if (durationMinutes != null) {
            out.println("Benchmark duration: " + PythonFloat.repr(durationMinutes) + " minutes");
        }
    }
}
