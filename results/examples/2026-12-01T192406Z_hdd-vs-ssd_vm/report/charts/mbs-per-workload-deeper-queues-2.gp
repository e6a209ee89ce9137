# written by iomatrix report; re-plot with: gnuplot mbs-per-workload-deeper-queues-2.gp
set encoding utf8
set terminal svg size 820,427 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'mbs-per-workload-deeper-queues-2.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set title 'Throughput (MB/s) per workload, queue depth x jobs above 1 (2 of 2)'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key outside top center horizontal noenhanced
set bmargin 7
set lmargin 19
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.9 border lc rgb '#333333'
set bars front
set xtics rotate by 30 right scale 0 font ',9' noenhanced
set ylabel 'MB/s (10^6 bytes/s)'
set ytics ('0' 0, '1k' 1000, '2k' 2000, '3k' 3000, '4k' 4000, '5k' 5000)
set yrange [0:5000]
plot for [i=1:2] 'mbs-per-workload-deeper-queues-2.dat' using (column(2*i)):(column(2*i+1)):xtic(1) title columnhead(2*i) lc rgb C[i]
set terminal pngcairo size 820,427 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'mbs-per-workload-deeper-queues-2.png'
plot for [i=1:2] 'mbs-per-workload-deeper-queues-2.dat' using (column(2*i)):(column(2*i+1)):xtic(1) title columnhead(2*i) lc rgb C[i]
set output
reset
