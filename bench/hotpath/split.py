"""CPU by thread group of a running `bench --bootstrap-servers` (started by bench/hotpath/alone), from
/proc: 10 s (AFTER_S) after its "Initial test run completed" line, over a 40 s (WINDOW_S) window, per event at the run's
RATE x LEN events/s (the environment alone reads; 20 req/s x 50 tokens by default), with each thread group's wake-ups (voluntary context switches) a second and the share of its CPU spent in the kernel (system time: syscalls, wake-ups). Usage: python3 bench/hotpath/split.py OUT/bench.log"""
import os,re,time,subprocess,collections,sys
def find():
    for p in os.listdir('/proc'):
        if p.isdigit():
            try: c=open(f'/proc/{p}/cmdline','rb').read().replace(b'\0',b' ').decode(); e=open(f'/proc/{p}/environ','rb').read()
            except: continue
            # this run's bench: alone sets its HOME to OUT/home (another helper's run may be going on)
            if ' bench ' in c and c.startswith('java') and home in e.split(b'\0'): return p
log=sys.argv[1]
home=b'HOME='+os.path.join(os.path.dirname(os.path.abspath(log)),'home').encode()
while not os.path.exists(log): time.sleep(0.5)
pid=None
while not pid: time.sleep(0.5); pid=find()
while 'Initial test run completed' not in open(log).read(): time.sleep(0.5)
def snap():
    out={}
    for t in os.listdir(f'/proc/{pid}/task'):
        try:
            st=open(f'/proc/{pid}/task/{t}/stat').read(); comm=open(f'/proc/{pid}/task/{t}/comm').read().strip()
            f=st.rsplit(')',1)[1].split()
            # voluntary context switches: how often the thread slept and was woken
            wakes=int(re.search(r'^voluntary_ctxt_switches:\s*(\d+)',open(f'/proc/{pid}/task/{t}/status').read(),re.M).group(1))
            tck=os.sysconf('SC_CLK_TCK')
            out[t]=(comm,(int(f[11])+int(f[12]))/tck,wakes,int(f[12])/tck)
        except Exception: pass
    return out
# AFTER_S and WINDOW_S move and size the window (a later one leaves the JIT's warm-up out)
time.sleep(float(os.environ.get('AFTER_S','10'))); a=snap(); t0=time.time(); time.sleep(float(os.environ.get('WINDOW_S','40'))); b=snap(); dt=time.time()-t0
g=collections.Counter(); w=collections.Counter(); k_sys=collections.Counter()
for t,(comm,cpu,wakes,sys_s) in b.items():
    k=re.sub(r'\d+','N',comm); before=a.get(t,(comm,0,0,0))
    g[k]+=cpu-before[1]; w[k]+=wakes-before[2]; k_sys[k]+=sys_s-before[3]
# the events/s that alone offers (RATE req/s x LEN events): a server that keeps up streams that many
rate=float(os.environ.get('RATE','20'))*float(os.environ.get('LEN','50'))
tot=sum(g.values()); ev=rate*dt
print(f"window {dt:.1f}s, cpu {tot:.2f}s, {tot/ev*1e6:.1f} us/event at {rate:.0f} events/s")
for k,v in g.most_common(14): print(f"  {k:24s} {v:6.2f}s {v/ev*1e6:7.1f} us/event {w[k]/dt:7.0f} wake-ups/s {100*k_sys[k]/v if v else 0:4.0f} % kernel")
