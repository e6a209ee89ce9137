# written by iomatrix report; re-plot with: gnuplot iops-per-workload-qd1.gp
set encoding utf8
set terminal svg size 820,417 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'iops-per-workload-qd1.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set title 'IOPS per workload, QD1, 1 job'
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
set ylabel 'IOPS, log scale'
set ytics ('100' 100, '1k' 1000, '10k' 10000, '100k' 100000, '1M' 1000000)
set logscale y 10
set yrange [100:1000000]
plot for [i=1:2] 'iops-per-workload-qd1.dat' using (column(2*i)):(column(2*i+1)):xtic(1) title columnhead(2*i) lc rgb C[i]
set terminal pngcairo size 820,417 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'iops-per-workload-qd1.png'
plot for [i=1:2] 'iops-per-workload-qd1.dat' using (column(2*i)):(column(2*i+1)):xtic(1) title columnhead(2*i) lc rgb C[i]
set output
reset
