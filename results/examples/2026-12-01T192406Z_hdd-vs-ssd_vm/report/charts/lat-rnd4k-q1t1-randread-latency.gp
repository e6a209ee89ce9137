# written by iomatrix report; re-plot with: gnuplot lat-rnd4k-q1t1-randread-latency.gp
set encoding utf8
set terminal svg size 800,440 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'lat-rnd4k-q1t1-randread-latency.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set title 'Latency percentiles: 4K random read, QD1, 3s run (LAT RND4K Q1T1)'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key outside top center horizontal noenhanced
array D[2]
D[1] = 1
D[2] = 1
set xlabel 'latency (µs), log scale'
set ylabel 'percentile (share of IOs slower)'
set xtics ('1' 1, '10' 10, '100' 100, '1k' 1000, '10k' 10000)
set logscale x 10
set xrange [1:10000]
set ytics ('p50' 0.5, 'p90' 0.1, 'p99' 0.01, 'p99.9' 0.001, 'p99.99' 0.0001, 'p99.999' 1e-05)
set logscale y 10
set yrange [5.0000000000000004e-06:1]
plot for [i=1:2] 'lat-rnd4k-q1t1-randread-latency.dat' using (column(2*i-1)):(column(2*i)) with lines lw 2 lc rgb C[i] dt D[i] title columnhead(2*i)
set terminal pngcairo size 800,440 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'lat-rnd4k-q1t1-randread-latency.png'
plot for [i=1:2] 'lat-rnd4k-q1t1-randread-latency.dat' using (column(2*i-1)):(column(2*i)) with lines lw 2 lc rgb C[i] dt D[i] title columnhead(2*i)
set output
reset
