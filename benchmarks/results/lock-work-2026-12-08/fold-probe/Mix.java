public class Mix {
    static long lcg(long seed, int n) {
        for (int w = 0; w < n; w++) seed = seed * 6364136223846793005L + 1442695040888963407L;
        return seed;
    }
    static long mix(long seed, int n) {
        for (int w = 0; w < n; w++) seed = (seed ^ (seed >>> 31)) * 0xBF58476D1CE4E5B9L + 0x9E3779B97F4A7C15L;
        return seed;
    }
    public static void main(String[] a) {
        for (int round = 0; round < 6; round++) {
            long s = round, t0 = System.nanoTime();
            for (int i = 0; i < 5_000_000; i++) s = lcg(s, 100) + i;
            long t1 = System.nanoTime();
            long m = round;
            for (int i = 0; i < 5_000_000; i++) m = mix(m, 80) + i;
            long t2 = System.nanoTime();
            long r = round;
            for (int i = 0; i < 5_000_000; i++) r = lcg(r, 20) + i;
            long t3 = System.nanoTime();
            long q = round;
            for (int i = 0; i < 5_000_000; i++) q = mix(q, 16) + i;
            long t4 = System.nanoTime();
            System.out.printf("lcg100 %.1f mix80 %.1f lcg20 %.1f mix16 %.1f ns (%d)%n", (t1-t0)/5e6, (t2-t1)/5e6, (t3-t2)/5e6, (t4-t3)/5e6, (s^m^r^q) & 1);
        }
    }
}
