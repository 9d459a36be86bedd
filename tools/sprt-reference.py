#!/usr/bin/env python3
# The reference values of crates/cli/src/matches/sprt.rs's tests: the GSPRT log-likelihood ratio
# of `okapi match --sprt`, computed independently in 40-digit arithmetic (mpmath): the
# multinomial's maximum-likelihood distribution under each hypothesis' mean, by bisection
# on the Lagrange multiplier (M. Van den Bergh's construction, as fishtest uses it).
# Counts: (losses, draws, wins) or a pair's (0, 1/2, 1, 3/2, 2) points; zeros count 1e-3.
from mpmath import mp, mpf, log
mp.dps = 40
def L(elo): return 1/(1+mpf(10)**(-mpf(elo)/400))
def llr(counts, elo0, elo1):
    c = [max(mpf(x), mpf('1e-3')) for x in counts]
    N = sum(c); k = len(c)
    a = [mpf(i)/(k-1) for i in range(k)]
    ph = [x/N for x in c]
    def mle(s):
        f = lambda x: sum(p*(ai-s)/(1+x*(ai-s)) for p, ai in zip(ph, a))
        lo, hi = -1/(a[-1]-s), 1/(s-a[0])
        # bisection to tight precision
        for _ in range(300):
            mid = (lo+hi)/2
            if f(mid) > 0: lo = mid
            else: hi = mid
        x = (lo+hi)/2
        return [p/(1+x*(ai-s)) for p, ai in zip(ph, a)]
    p0, p1 = mle(L(elo0)), mle(L(elo1))
    return N*sum(p*log(q1/q0) for p, q0, q1 in zip(ph, p0, p1))
for counts, e0, e1 in [([10,20,30], 0, 10), ([120,80,100], -10, 10), ([3,40,100,60,5], 0, 20),
                       ([1,12,40,30,7], 0, 50), ([0,0,5,0,0], 0, 10), ([0,5,30,50,15], 0, 150)]:
    print(counts, e0, e1, mp.nstr(llr(counts, e0, e1), 15))
