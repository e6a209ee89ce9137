# written by iomatrix report; re-plot with: gnuplot sustained-seq1m-q32t1-write-mbs-over-time.gp
set encoding utf8
set terminal svg size 800,440 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'sustained-seq1m-q32t1-write-mbs-over-time.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set title 'Throughput over time (first repetition): 1M sequential write, QD32 (SUSTAINED SEQ1M Q32T1)'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key outside top center horizontal noenhanced
array D[2]
D[1] = 1
D[2] = 1
set xlabel 'time (s), each interval at its midpoint'
set ylabel 'MB/s (10^6 bytes/s)'
set ytics ('0' 0, '1k' 1000, '2k' 2000, '3k' 3000, '4k' 4000)
set yrange [0:4000]
plot for [i=1:2] 'sustained-seq1m-q32t1-write-mbs-over-time.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.6 lc rgb C[i] dt D[i] title columnhead(2*i)
set terminal pngcairo size 800,440 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'sustained-seq1m-q32t1-write-mbs-over-time.png'
plot for [i=1:2] 'sustained-seq1m-q32t1-write-mbs-over-time.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.6 lc rgb C[i] dt D[i] title columnhead(2*i)
set output
reset
